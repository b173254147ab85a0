/**
 * Start-up registration of API keys: the `CMS_API_KEYS` pairs (tenants created as needed), or,
 * on the embedded store with none configured, a fresh key for tenant `default`, printed once.
 */
import { ErrorCodes, isDomainError, type ManageTenants } from '@cms/core';
import { ConfigError } from './config/env-reader.js';
import type { ServiceConfig } from './config/service-config.js';

export interface BootstrapResult {
  /** The generated key for tenant `default`, when one was made. */
  readonly generatedKey: string | undefined;
}

export async function bootstrapKeys(config: ServiceConfig, manage: ManageTenants): Promise<BootstrapResult> {
  for (const { key, tenantId } of config.auth.apiKeys) {
    await manage.ensureTenant(tenantId);
    await manage.registerKey(tenantId, key).catch((error: unknown) => {
      throw registeredElsewhere(error) ? keyOfAnotherTenant(tenantId) : error;
    });
  }
  if (config.auth.apiKeys.length > 0 || config.storage.kind !== 'memory') return { generatedKey: undefined };
  await manage.ensureTenant('default', 'Default tenant');
  const issued = await manage.issueKey('default', 'generated at start-up');
  return { generatedKey: issued.key };
}

/** `registerKey`'s refusal of a key the store already holds for another tenant (an earlier CMS_API_KEYS, or cms-admin). */
function registeredElsewhere(error: unknown): boolean {
  return isDomainError(error) && error.code === ErrorCodes.VALIDATION_FAILED && error.issues[0]?.path === 'apiKey';
}

function keyOfAnotherTenant(tenantId: string): ConfigError {
  return new ConfigError(
    'CMS_API_KEYS',
    `gives tenant "${tenantId}" a key the store already holds for another tenant; a key belongs to one tenant: give "${tenantId}" another key, or revoke the old one (cms-admin apikey list / apikey revoke)`,
  );
}
