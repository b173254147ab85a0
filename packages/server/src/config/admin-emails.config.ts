/**
 * `CMS_ADMIN_EMAILS`: comma-separated `tenantId:address` pairs, the admin e-mail addresses of the
 * tenants the service creates at start-up on the embedded store (`default`, or those of
 * `CMS_API_KEYS`): where a form's admin notification e-mail goes when the form names no
 * recipients of its own (CONTRACT §2.3). A tenant may be named in several pairs. On MongoDB a
 * tenant keeps its addresses between starts (`cms-admin tenant set-admin-emails`), so the variable
 * is refused there: two sources for one setting would overwrite each other at every start.
 */
import { isMailAddress } from '@cms/core/internal';
import { colonPairs, ConfigError, type EnvReader } from './env-reader.js';
import type { ApiKeySetting } from './api-keys.config.js';

const VARIABLE = 'CMS_ADMIN_EMAILS';
/** As a form's `recipients` (§2.3). */
const MAX_PER_TENANT = 50;

/** Tenant id → its admin addresses, in the order given, each once. */
export type AdminEmailSettings = ReadonlyMap<string, readonly string[]>;

export function loadAdminEmails(read: EnvReader, storageKind: 'memory' | 'mongo', apiKeys: readonly ApiKeySetting[]): AdminEmailSettings {
  const value = read.string(VARIABLE);
  if (value === undefined) return new Map();
  if (storageKind !== 'memory') {
    throw new ConfigError(VARIABLE, 'is for the embedded store; on MongoDB a tenant keeps its addresses: set them with cms-admin tenant set-admin-emails');
  }
  const tenants = apiKeys.length > 0 ? new Set(apiKeys.map((setting) => setting.tenantId)) : new Set(['default']);
  const settings = new Map<string, string[]>();
  const notAPair = (entry: number) => new ConfigError(VARIABLE, `entry ${entry} is not a tenantId:address pair; the value must be comma-separated tenantId:address pairs`);
  for (const { entry, left: tenantId, right: address } of colonPairs(value, 'first', notAPair)) {
    if (!tenants.has(tenantId)) {
      throw new ConfigError(VARIABLE, `entry ${entry} names tenant "${tenantId}", which the service does not create (${[...tenants].join(', ')}: the tenants of CMS_API_KEYS, else default)`);
    }
    // The rule of `ManageTenants.setAdminEmails`, checked here so a bad one stops start-up by name.
    if (!isMailAddress(address)) throw new ConfigError(VARIABLE, `entry ${entry} has "${address}", which is not an e-mail address`);
    const addresses = settings.get(tenantId) ?? [];
    if (!addresses.includes(address)) addresses.push(address);
    if (addresses.length > MAX_PER_TENANT) throw new ConfigError(VARIABLE, `gives tenant "${tenantId}" more than ${MAX_PER_TENANT} addresses`);
    settings.set(tenantId, addresses);
  }
  if (settings.size === 0) throw new ConfigError(VARIABLE, 'holds no pair; leave it empty or unset it for none');
  return settings;
}
