/**
 * AI provider and quota settings. Without AI_BASE_URL there is no provider and POST
 * /ai/translate answers 503; with it, AI_MODEL is required (every compatible server needs one).
 */
import { ConfigError, type EnvReader } from './env-reader.js';
import { hasCredentials, isHttpUrl, parsedUrl } from './urls.js';

export interface AiProviderConfig {
  /** AI_BASE_URL, including any version path (`https://api.openai.com/v1`). */
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  readonly model: string;
  readonly timeoutMs: number;
}

export interface AiConfig {
  /** Undefined when AI_BASE_URL is not set. */
  readonly provider: AiProviderConfig | undefined;
  /** AI_TOKEN_LIMIT_MONTHLY: the monthly limit of a tenant without its own. */
  readonly tokenLimitMonthly: number;
}

export const DEFAULT_AI_TIMEOUT_MS = 30_000;
export const DEFAULT_AI_TOKEN_LIMIT_MONTHLY = 100_000;

export function loadAiConfig(read: EnvReader): AiConfig {
  const baseUrl = read.string('AI_BASE_URL');
  const timeoutMs = read.int('AI_TIMEOUT_MS', DEFAULT_AI_TIMEOUT_MS, 100, 600_000);
  const tokenLimitMonthly = read.int('AI_TOKEN_LIMIT_MONTHLY', DEFAULT_AI_TOKEN_LIMIT_MONTHLY, 0, Number.MAX_SAFE_INTEGER);
  if (baseUrl === undefined) return { provider: undefined, tokenLimitMonthly };
  checkBaseUrl(baseUrl);
  const model = read.string('AI_MODEL');
  if (model === undefined) throw new ConfigError('AI_MODEL', 'must be set when AI_BASE_URL is set (e.g. gpt-4o-mini, llama3.1:8b)');
  return { provider: { baseUrl, apiKey: read.string('AI_API_KEY'), model, timeoutMs }, tokenLimitMonthly };
}

function checkBaseUrl(value: string): void {
  const url = parsedUrl(value);
  if (!isHttpUrl(url)) {
    // Not quoted, here or below: the value may carry a key.
    throw new ConfigError('AI_BASE_URL', 'must be an http(s) URL such as https://api.openai.com/v1');
  }
  if (hasCredentials(url)) {
    throw new ConfigError('AI_BASE_URL', 'must not contain credentials: put the key in AI_API_KEY');
  }
  if (url.hash) throw new ConfigError('AI_BASE_URL', 'must not contain a #fragment');
}
