/**
 * Every engagement use case wired on fresh in-memory adapters (through `createCore`), for use
 * case tests (here and in embedding services). The CAPTCHA verifier accepts the tokens given,
 * scored as given.
 */
import { StaticCaptchaVerifier, type CaptchaProvider } from '../captcha/captcha.ports.js';
import { createCore } from '../embedded/create-core.js';
import type { GuestEngagementPolicy } from '../guests/guests.ports.js';
import { ManualClock } from '../shared/clock.js';

export interface EngagementFixtureOptions {
  readonly policy?: Partial<GuestEngagementPolicy>;
  readonly captchaProvider?: CaptchaProvider;
  /** Tokens the CAPTCHA verifier accepts, with an optional score. Default: `token` (no score). */
  readonly acceptedTokens?: ReadonlyMap<string, number | undefined>;
}

export function memoryEngagement(options: EngagementFixtureOptions = {}) {
  const clock = new ManualClock('2026-03-04T05:06:07.890Z');
  const captcha = new StaticCaptchaVerifier(options.acceptedTokens ?? new Map([['token', undefined]]));
  const core = createCore({ captcha, clock, captchaProvider: options.captchaProvider ?? 'recaptcha', guestPolicy: options.policy ?? {} });
  const { tenants, authors, categories, articles, comments, reactions, guestLimiter: limiter } = core.stores;
  return {
    clock,
    captcha,
    repositories: { tenants, authors, categories, articles, comments, reactions, limiter },
    createAuthor: core.authors.create,
    getAuthor: core.authors.get,
    deleteAuthor: core.authors.remove,
    createCategory: core.articles.createCategory,
    createArticle: core.articles.create,
    getArticle: core.articles.get,
    deleteArticle: core.articles.remove,
    reactToArticle: core.articles.react,
    createComment: core.comments.create,
    approveComment: core.comments.approve,
    reactToComment: core.comments.react,
    deleteComment: core.comments.remove,
    commentSummary: core.comments.reactionSummary,
    admitGuest: core.guests.admit,
    recount: core.maintenance.recountReactions,
  };
}

export type MemoryEngagement = ReturnType<typeof memoryEngagement>;
