/**
 * Machine translation as a port. An adapter speaks to one provider (adapter-ai: any
 * OpenAI-compatible chat-completions server) and reports the tokens it spent, so the use case
 * can charge them to the tenant. Failures are domain errors with the AI_* codes; HTTP statuses
 * are the inbound adapter's business.
 */
import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { portToken, type PortToken } from '../shared/port-token.js';
import type { TraceContext } from '../shared/trace-context.js';

export interface TranslationRequest {
  readonly text: string;
  /** A language code of the tenant (`fr`, `pt-BR`). */
  readonly targetLanguage: string;
  /** The language of `text`; absent means "detect it". */
  readonly sourceLanguage?: string;
  /** The request's trace: the provider call carries a child `traceparent`. */
  readonly trace?: TraceContext;
}

export interface TranslationResult {
  /** The translation, trimmed, never empty. */
  readonly content: string;
  /** Tokens the provider reports for the call (prompt and answer): what the tenant is charged. */
  readonly totalTokens: number;
}

export interface TranslationProvider {
  /**
   * False when the service has no provider configured: the use case answers
   * `AI_NOT_CONFIGURED` before it looks at the quota.
   */
  readonly configured: boolean;
  /**
   * Translates `text`. Throws a DomainError `AI_PROVIDER_FAILED` when the provider fails or
   * answers something unusable, `AI_PROVIDER_TIMEOUT` when it does not answer in time, and
   * `AI_NOT_CONFIGURED` when there is no provider. Only a resolved call spends tokens.
   */
  translate(request: TranslationRequest): Promise<TranslationResult>;
}

export const TranslationProviderToken: PortToken<TranslationProvider> = portToken('TranslationProvider');

/** The provider bound when none is configured: every call is `AI_NOT_CONFIGURED`. */
export class UnconfiguredTranslationProvider implements TranslationProvider {
  readonly configured = false;

  async translate(): Promise<TranslationResult> {
    throw aiNotConfigured();
  }
}

/** `AI_NOT_CONFIGURED`: the service has no translation provider. */
export function aiNotConfigured(): DomainError {
  return new DomainError(ErrorCodes.AI_NOT_CONFIGURED, 'AI provider is not configured');
}

/**
 * `AI_PROVIDER_FAILED`, with the reason (`HTTP 500`, `malformed JSON`) in the message for
 * logs and embedders; adapter-koa answers its fixed message, never the reason.
 */
export function aiProviderFailed(reason: string): DomainError {
  return new DomainError(ErrorCodes.AI_PROVIDER_FAILED, `AI provider request failed: ${reason}`);
}

/** `AI_PROVIDER_TIMEOUT`: no complete answer within the configured time. */
export function aiProviderTimedOut(timeoutMs: number): DomainError {
  return new DomainError(ErrorCodes.AI_PROVIDER_TIMEOUT, `AI provider timed out after ${timeoutMs} ms`);
}
