/**
 * AI translation: the provider (OpenAI-compatible when AI_BASE_URL is set, else one that
 * answers "not configured"), the quota policy, the use cases and the route.
 */
import { OpenAiChatTranslationProvider } from '@cms/adapter-ai';
import { RouteModuleToken, ServiceMetrics, translateRoutes } from '@cms/adapter-koa';
import {
  AiQuotaPolicyToken,
  AiUsageLedgerToken,
  GetAiUsage,
  LanguageCatalogToken,
  TenantRepositoryToken,
  TranslateText,
  TranslationProviderToken,
  UnconfiguredTranslationProvider,
  type AiQuotaPolicy,
  type AiUsageLedger,
  type Clock,
  type LanguageCatalog,
  type Logger,
  type TenantRepository,
  type TranslationProvider,
} from '@cms/core';
import { ContainerModule } from 'inversify';
import type { ServiceConfig } from '../config/service-config.js';
import { ServerTokens } from './server-tokens.js';

export const aiModule = new ContainerModule(({ bind }) => {
  bind(AiQuotaPolicyToken).toResolvedValue(
    (config: ServiceConfig): AiQuotaPolicy => ({ defaultMonthlyTokenLimit: config.ai.tokenLimitMonthly }),
    [ServerTokens.Config],
  );
  bind(TranslationProviderToken).toResolvedValue(
    (config: ServiceConfig, logger: Logger): TranslationProvider => {
      const settings = config.ai.provider;
      if (!settings) {
        logger.warn('AI provider not configured: POST /ai/translate answers 503 until AI_BASE_URL and AI_MODEL are set');
        return new UnconfiguredTranslationProvider();
      }
      return new OpenAiChatTranslationProvider({ ...settings, logger });
    },
    [ServerTokens.Config, ServerTokens.Logger],
  );
  bind(TranslateText).toResolvedValue(
    (
      provider: TranslationProvider,
      ledger: AiUsageLedger,
      tenants: TenantRepository,
      languages: LanguageCatalog,
      policy: AiQuotaPolicy,
      clock: Clock,
      metrics: ServiceMetrics,
    ) => new TranslateText(provider, countingCharges(ledger, metrics), tenants, languages, policy, clock),
    [
      TranslationProviderToken,
      AiUsageLedgerToken,
      TenantRepositoryToken,
      LanguageCatalogToken,
      AiQuotaPolicyToken,
      ServerTokens.Clock,
      ServiceMetrics,
    ],
  );
  bind(GetAiUsage).toResolvedValue(
    (ledger: AiUsageLedger, tenants: TenantRepository, policy: AiQuotaPolicy, clock: Clock) => new GetAiUsage(ledger, tenants, policy, clock),
    [AiUsageLedgerToken, TenantRepositoryToken, AiQuotaPolicyToken, ServerTokens.Clock],
  );
  bind(RouteModuleToken).toResolvedValue((translate: TranslateText) => translateRoutes({ translate }), [TranslateText]);
});

/** The ledger, with every charge also counted in `ai_tokens_charged_total` once it is stored. */
function countingCharges(ledger: AiUsageLedger, metrics: ServiceMetrics): AiUsageLedger {
  return {
    get: (tenantId, month) => ledger.get(tenantId, month),
    add: async (tenantId, month, tokens) => {
      const used = await ledger.add(tenantId, month, tokens);
      metrics.aiTokensCharged(tokens);
      return used;
    },
  };
}
