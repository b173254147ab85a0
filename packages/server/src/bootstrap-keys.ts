/**
 * Start-up registration of API keys: the `CMS_API_KEYS` pairs (tenants created as needed), or,
 * on the embedded store with none configured, a fresh key for tenant `default`, printed once;
 * then the admin e-mail addresses `CMS_ADMIN_EMAILS` gives those tenants (embedded store).
 */
import { ErrorCodes, isDomainError, type Logger, type ManageTenants } from '@cms/core';
import { ConfigError } from './config/env-reader.js';
import type { ServiceConfig } from './config/service-config.js';

export interface BootstrapResult {
  /** The generated key for tenant `default`, when one was made. */
  readonly generatedKey: string | undefined;
}

export async function bootstrapKeys(config: ServiceConfig, manage: ManageTenants, logger: Logger): Promise<BootstrapResult> {
  // Every key checked before anything is written: a refused start-up creates no tenant.
  for (const { key, tenantId } of config.auth.apiKeys) {
    const holder = await manage.tenantOfKey(key);
    if (holder !== null && holder !== tenantId) throw keyOfAnotherTenant(tenantId);
  }
  for (const { key, tenantId } of config.auth.apiKeys) {
    await manage.ensureTenant(tenantId);
    const record = await manage.registerKey(tenantId, key).catch((error: unknown) => {
      throw registeredElsewhere(error) ? keyOfAnotherTenant(tenantId) : error;
    });
    if (record.revokedAt !== null) {
      // Started anyway: refusing would turn the revocation of a leaked key into an outage at the
      // next restart. The key stays refused on every request, as revoked keys are.
      logger.warn('CMS_API_KEYS holds a revoked key; it is refused on every request: remove it from CMS_API_KEYS', {
        tenantId,
        keyId: record.id,
        revokedAt: record.revokedAt.toISOString(),
      });
    }
  }
  let generatedKey: string | undefined;
  if (config.auth.apiKeys.length === 0 && config.storage.kind === 'memory') {
    await manage.ensureTenant('default', 'Default tenant');
    generatedKey = (await manage.issueKey('default', 'generated at start-up')).key;
  }
  for (const [tenantId, addresses] of config.adminEmails) await manage.setAdminEmails(tenantId, addresses);
  return { generatedKey };
}

/** `registerKey`'s refusal of a key the store already holds for another tenant (an earlier CMS_API_KEYS, or cms-admin). */
function registeredElsewhere(error: unknown): boolean {
  return isDomainError(error) && error.code === ErrorCodes.VALIDATION_FAILED && error.issues[0]?.path === 'apiKey';
}

function keyOfAnotherTenant(tenantId: string): ConfigError {
  return new ConfigError(
    'CMS_API_KEYS',
    `gives tenant "${tenantId}" a key the store already holds for another tenant; a key belongs to one tenant, also once revoked: give "${tenantId}" another key`,
  );
}
