/** Tenants and their API keys. A key decides the tenant of every request made with it. */
import { validationError } from '../shared/domain-error.js';

export const TENANT_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** `TENANT_ID_PATTERN` in words, for every message that refuses a tenant id (never the expression itself). */
export const TENANT_ID_WORDS = 'must be 1 to 64 lowercase letters, digits and hyphens, starting with a letter or digit';

export interface Tenant {
  readonly id: string;
  readonly name: string;
  /** Monthly AI token limit of this tenant; null means the service-wide default. */
  readonly aiTokenLimitMonthly: number | null;
  /** Where admin notification e-mail goes when a form names no recipients. */
  readonly adminEmails: readonly string[];
  readonly createdAt: Date;
}

export interface ApiKey {
  readonly id: string;
  readonly tenantId: string;
  readonly name: string;
  /** SHA-256 of the key, hex. Nothing of the key itself is stored (listings show `apiKeyFingerprint`). */
  readonly hash: string;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
}

/**
 * How a listing names a key: `sha256:` and the first 8 hex digits of its stored digest, e.g.
 * `sha256:1a2b3c4d`. It is made from the hash alone, so it shows nothing of the key; whoever holds
 * the key finds its fingerprint with `printf %s "$KEY" | sha256sum | cut -c1-8` (decision 0789).
 */
export function apiKeyFingerprint(key: Pick<ApiKey, 'hash'>): string {
  return `sha256:${key.hash.slice(0, 8)}`;
}

export function isValidTenantId(value: unknown): value is string {
  // A string first: `test` would read `undefined` or `123` as the text "undefined" or "123".
  return typeof value === 'string' && TENANT_ID_PATTERN.test(value);
}

/**
 * A write names its tenant by a well-formed id (an embedder builds the caller itself; over HTTP
 * the API key decides it). Throws `VALIDATION_FAILED` at `tenantId`.
 */
export function requireTenantId(tenantId: unknown): void {
  if (typeof tenantId !== 'string' || !TENANT_ID_PATTERN.test(tenantId)) {
    throw validationError('tenantId', TENANT_ID_WORDS);
  }
}
