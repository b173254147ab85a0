/**
 * Translates a text for a tenant and charges the provider's tokens to the tenant's month.
 * Order: input (400) → provider configured (503) → quota (429) → provider (502/504) → charge.
 * Built with `new` (not by `createCore`, which checks its use cases' callers and inputs at its
 * door), it checks its caller and its text itself: an embedder's bad call is `VALIDATION_FAILED`,
 * never a `TypeError`, and never text with a lone surrogate sent to the provider (decision 0822).
 * The quota is checked before the call, so concurrent calls near the limit may all pass and
 * overshoot it; every call's tokens are still counted (the ledger adds atomically).
 */
import type { Clock } from '../shared/clock.js';
import { limitError, validationError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import type { LanguageCatalog } from '../shared/languages.js';
import type { TenantRepository } from '../tenancy/tenancy.ports.js';
import { checkedQuotaPolicy, monthlyTokenLimitOf, nextMonthStart, tokenUsageOf, usageMonthOf, type AiTokenUsage } from './ai-quota.js';
import type { AiQuotaPolicy, AiUsageLedger } from './ai-usage.ports.js';
import { aiNotConfigured, aiProviderFailed, type TranslationProvider, type TranslationRequest } from './translation.ports.js';
import { exceedsCharacters, requireKnownKeys } from '../shared/shape-rules.js';
import type { Caller } from '../shared/caller.js';
import type { TraceContext } from '../shared/trace-context.js';
import { isWellFormedText, MALFORMED_TEXT } from '../shared/well-formed-text.js';
import { requireTenantId } from '../tenancy/tenant.js';

const TRANSLATE_KEYS: ReadonlySet<string> = new Set(['text', 'targetLanguage', 'sourceLanguage']);

/** Longest text accepted, in characters (Unicode code points). */
export const TRANSLATION_TEXT_MAX = 20_000;

export interface TranslateTextInput {
  readonly text: string;
  readonly targetLanguage: string;
  /** Absent or null: the provider detects the language. */
  readonly sourceLanguage?: string | null;
}

export interface TranslatedText {
  readonly content: string;
  /** This month's usage including this call. */
  readonly tokens: AiTokenUsage;
}

export class TranslateText {
  constructor(
    private readonly provider: TranslationProvider,
    private readonly ledger: AiUsageLedger,
    private readonly tenants: TenantRepository,
    private readonly languages: LanguageCatalog,
    private readonly policy: AiQuotaPolicy,
    private readonly clock: Clock,
  ) {
    checkedQuotaPolicy(policy, 'TranslateText');
  }

  /** The caller's trace context is passed on to the provider call. */
  async execute(caller: Caller, input: TranslateTextInput): Promise<TranslatedText> {
    if (typeof caller !== 'object' || caller === null) throw validationError('caller', 'must be an object');
    const { tenantId, trace } = caller;
    requireTenantId(tenantId); // it charges the tenant's month
    const request = this.#requestOf(tenantId, input, trace);
    if (!this.provider.configured) throw aiNotConfigured();
    // The month is fixed when the call starts: the month whose quota let it through pays for it.
    const now = this.clock.now();
    const month = usageMonthOf(now);
    // Two independent reads, sent together: one round trip of waiting instead of two.
    const [limit, usedBefore] = await Promise.all([monthlyTokenLimitOf(this.tenants, this.policy, tenantId), this.ledger.get(tenantId, month)]);
    if (usedBefore >= limit) {
      throw limitError(ErrorCodes.AI_QUOTA_EXCEEDED, 'AI token quota exceeded', now, nextMonthStart(now));
    }
    const result = await this.provider.translate(request);
    if (!Number.isSafeInteger(result.totalTokens) || result.totalTokens < 0) {
      throw aiProviderFailed(`invalid token count ${String(result.totalTokens)}`);
    }
    const used = await this.ledger.add(tenantId, month, result.totalTokens);
    return { content: result.content, tokens: tokenUsageOf(used, limit) };
  }

  /**
   * The provider's request, built once with its members added in place: a copy made only to
   * spread the trace in showed in translate's cost (decision 0730).
   */
  #requestOf(tenantId: string, input: TranslateTextInput, trace: TraceContext | undefined): TranslationRequest {
    requireKnownKeys(input, '', TRANSLATE_KEYS);
    const { text, targetLanguage, sourceLanguage } = input;
    if (typeof text !== 'string') throw validationError('text', 'must be a string');
    if (!isWellFormedText(text)) throw validationError('text', MALFORMED_TEXT);
    if (text.trim() === '') throw validationError('text', 'must not be blank');
    if (exceedsCharacters(text, TRANSLATION_TEXT_MAX)) {
      throw validationError('text', `must NOT have more than ${TRANSLATION_TEXT_MAX} characters`);
    }
    const allowed = this.languages.languagesOf(tenantId);
    const requireLanguage = (value: unknown, path: string) => {
      if (typeof value !== 'string' || !allowed.includes(value)) throw validationError(path, `must be one of ${allowed.join(', ')}`);
    };
    requireLanguage(targetLanguage, 'targetLanguage');
    const request: { -readonly [K in keyof TranslationRequest]: TranslationRequest[K] } = { text, targetLanguage };
    if (sourceLanguage !== undefined && sourceLanguage !== null) {
      requireLanguage(sourceLanguage, 'sourceLanguage');
      request.sourceLanguage = sourceLanguage;
    }
    if (trace) request.trace = trace;
    return request;
  }
}
