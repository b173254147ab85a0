/**
 * Start-up registration of API keys: the `CMS_API_KEYS` pairs (tenants created as needed), or,
 * on the embedded store with none configured, a fresh key for tenant `default`, printed once.
 */
import type { ManageTenants } from '@cms/core';
import type { ServiceConfig } from './config/service-config.js';

export interface BootstrapResult {
  /** The generated key for tenant `default`, when one was made. */
  readonly generatedKey: string | undefined;
}

export async function bootstrapKeys(config: ServiceConfig, manage: ManageTenants): Promise<BootstrapResult> {
  for (const { key, tenantId } of config.auth.apiKeys) {
    await manage.ensureTenant(tenantId);
    await manage.registerKey(tenantId, key);
  }
  if (config.auth.apiKeys.length > 0 || config.storage.kind !== 'memory') return { generatedKey: undefined };
  await manage.ensureTenant('default', 'Default tenant');
  const issued = await manage.issueKey('default', 'generated at start-up');
  return { generatedKey: issued.key };
}
