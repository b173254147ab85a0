/** Tenants and their API keys. A key decides the tenant of every request made with it. */
export const TENANT_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

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
  /** SHA-256 of the key, hex. The key itself is never stored. */
  readonly hash: string;
  /** The first characters of the key, to tell keys apart in listings. */
  readonly prefix: string;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
}

export function isValidTenantId(value: string): boolean {
  return TENANT_ID_PATTERN.test(value);
}
