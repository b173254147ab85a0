/** Guest engagement settings: the fixed-window guest rate limit and the CAPTCHA score guests need. */
import { DEFAULT_GUEST_ENGAGEMENT_POLICY, type GuestEngagementPolicy } from '@cms/core';
import { ConfigError, type EnvReader } from './env-reader.js';

export type EngagementConfig = GuestEngagementPolicy;

export function loadEngagementConfig(read: EnvReader): EngagementConfig {
  return {
    limit: read.int('GUEST_REACTION_LIMIT', DEFAULT_GUEST_ENGAGEMENT_POLICY.limit, 1, 1_000_000),
    windowSeconds: read.int('GUEST_REACTION_WINDOW_SECONDS', DEFAULT_GUEST_ENGAGEMENT_POLICY.windowSeconds, 1, 7 * 24 * 3600),
    minCaptchaScore: score(read, 'GUEST_CAPTCHA_MIN_SCORE', DEFAULT_GUEST_ENGAGEMENT_POLICY.minCaptchaScore),
  };
}

function score(read: EnvReader, name: string, fallback: number): number {
  const text = read.string(name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || value > 1) throw new ConfigError(name, `must be a number from 0 to 1 (got "${text}")`);
  return value;
}
