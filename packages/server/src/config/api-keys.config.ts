/**
 * `CMS_API_KEYS`: comma-separated `key:tenantId` pairs registered at start-up (CONTRACT §1.1).
 * Read like every comma list of the service (`CMS_CORS_ORIGINS`, `CMS_LANGUAGES`): items are
 * trimmed and an empty one (a trailing comma) is no entry. A message names an entry by its
 * position in the value and never quotes a key (nor what stands where a tenant id should: a pair
 * written the wrong way round puts the key there): it may be read by whoever reads the logs.
 */
import { API_KEY_MAX_LENGTH, isValidTenantId, TENANT_ID_WORDS } from '@cms/core';
import { colonPairs, ConfigError, type EnvReader } from './env-reader.js';

export interface ApiKeySetting {
  readonly key: string;
  readonly tenantId: string;
}

const MIN_API_KEY_LENGTH = 16;
/** Printable ASCII without the space: what an `x-api-key` header carries unchanged. */
const KEY_CHARACTERS = /^[\x21-\x7e]+$/;
const VARIABLE = 'CMS_API_KEYS';

export function loadApiKeys(read: EnvReader): ApiKeySetting[] {
  const value = read.string(VARIABLE);
  if (value === undefined) return [];
  // Each key once, with the entry that gave it (a key written twice for one tenant is harmless).
  const entries = new Map<string, { readonly tenantId: string; readonly entry: number }>();
  const notAPair = (entry: number) => new ConfigError(VARIABLE, `entry ${entry} is not a key:tenantId pair; the value must be comma-separated key:tenantId pairs`);
  for (const { entry, left: key, right: tenantId } of colonPairs(value, 'last', notAPair)) {
    if (key.length < MIN_API_KEY_LENGTH) {
      throw new ConfigError(VARIABLE, `entry ${entry} has a key of ${key.length} characters; keys must have at least ${MIN_API_KEY_LENGTH}`);
    }
    if (key.length > API_KEY_MAX_LENGTH) {
      throw new ConfigError(VARIABLE, `entry ${entry} has a key of ${key.length} characters; keys may have at most ${API_KEY_MAX_LENGTH}`);
    }
    if (!KEY_CHARACTERS.test(key)) {
      // A header carries bytes, read as Latin-1: a key with other characters could never be sent as configured.
      throw new ConfigError(VARIABLE, `entry ${entry} has a key with a character other than printable ASCII (no spaces); no request could send it`);
    }
    // The tenant id is not quoted either: a pair written tenantId:key puts the key there.
    if (!isValidTenantId(tenantId)) {
      throw new ConfigError(VARIABLE, `entry ${entry} has an invalid tenant id (it ${TENANT_ID_WORDS}); is it written key:tenantId?`);
    }
    const earlier = entries.get(key);
    if (earlier !== undefined && earlier.tenantId !== tenantId) {
      throw new ConfigError(VARIABLE, `gives one key to two tenants (entries ${earlier.entry} and ${entry}); a key belongs to one tenant`);
    }
    if (earlier === undefined) entries.set(key, { tenantId, entry });
  }
  if (entries.size === 0) throw new ConfigError(VARIABLE, 'holds no key:tenantId pair; leave it empty or unset it for none');
  return [...entries].map(([key, { tenantId }]) => ({ key, tenantId }));
}
