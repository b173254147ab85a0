/**
 * Tenant and key administration: what the start-up bootstrap and the admin command line do.
 * Each method is one small use case; they share a class because they share every port.
 */
import type { Clock } from '../shared/clock.js';
import { DomainError, validationError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { canonicalId, isWellFormedId, newId } from '../shared/ids.js';
import { isMailAddress } from '../shared/input-rules.js';
import { isWellFormedText, MALFORMED_TEXT, malformedTextPath } from '../shared/well-formed-text.js';
import { generateApiKey, hashApiKey } from './api-key-secret.js';
import { API_KEY_MAX_LENGTH } from './authenticate-api-key.use-case.js';
import type { ApiKeyRepository, TenantRepository } from './tenancy.ports.js';
import { isValidTenantId, TENANT_ID_WORDS, type ApiKey, type Tenant } from './tenant.js';

export interface IssuedApiKey {
  /** The key in clear: shown once, never stored. */
  readonly key: string;
  readonly record: ApiKey;
}

/** The most characters of a tenant's or an API key's name. */
const DISPLAY_NAME_MAX_LENGTH = 100;

/**
 * A tenant's or a key's name is shown on one line (`apikey list`, start-up and admin messages):
 * 1 to 100 characters, not blank, and no control character (a line break would forge a line).
 */
function requireDisplayName(name: unknown): void {
  if (typeof name !== 'string') throw validationError('name', 'must be a string');
  if (malformedTextPath(name) !== undefined) throw validationError('name', MALFORMED_TEXT);
  if (name.trim() === '' || name.length > DISPLAY_NAME_MAX_LENGTH || /\p{Cc}/u.test(name)) {
    throw validationError('name', `must be 1 to ${DISPLAY_NAME_MAX_LENGTH} characters, not blank, without control characters such as line breaks`);
  }
}

export class ManageTenants {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
  ) {}

  /** Creates a tenant; `TENANT_EXISTS` when the id is taken. */
  async createTenant(id: string, name = id): Promise<Tenant> {
    const tenant = this.#newTenant(id, name);
    if (!(await this.tenants.insert(tenant))) {
      throw new DomainError(ErrorCodes.TENANT_EXISTS, `Tenant ${id} already exists`);
    }
    return tenant;
  }

  /** Creates the tenant unless it exists; returns it either way. */
  async ensureTenant(id: string, name = id): Promise<Tenant> {
    await this.tenants.insert(this.#newTenant(id, name));
    return (await this.tenants.findById(id)) as Tenant;
  }

  /** Issues a new random key for an existing tenant. */
  async issueKey(tenantId: string, name = 'default'): Promise<IssuedApiKey> {
    await this.#requireTenant(tenantId);
    const key = generateApiKey();
    return { key, record: await this.registerKey(tenantId, key, name) };
  }

  /** Registers a key chosen by the operator (CMS_API_KEYS); idempotent for the same key. */
  async registerKey(tenantId: string, key: string, name = 'configured'): Promise<ApiKey> {
    if (typeof key !== 'string' || key === '') throw validationError('key', 'must be a non-empty string');
    // What `AuthenticateApiKey` would never accept is not registered either.
    if (!isWellFormedText(key)) throw validationError('key', MALFORMED_TEXT);
    if (key.length > API_KEY_MAX_LENGTH) throw validationError('key', `must be at most ${API_KEY_MAX_LENGTH} characters`);
    requireDisplayName(name);
    await this.#requireTenant(tenantId);
    const hash = hashApiKey(key);
    const existing = await this.keys.findByHash(hash);
    if (existing) return this.#sameTenant(existing, tenantId);
    const record: ApiKey = {
      id: newId(this.clock.now()),
      tenantId,
      name,
      hash,
      createdAt: this.clock.now(),
      revokedAt: null,
    };
    try {
      await this.keys.insert(record);
    } catch (error) {
      // Instances starting together with the same CMS_API_KEYS race between the read above and
      // this insert; hashes are unique, so the loser finds the winner's record and uses it.
      const winner = await this.keys.findByHash(hash);
      if (!winner) throw error;
      return this.#sameTenant(winner, tenantId);
    }
    return record;
  }

  /** The tenant a key is registered to, revoked or not; null when the store holds no such key. */
  async tenantOfKey(key: string): Promise<string | null> {
    if (typeof key !== 'string' || key === '') throw validationError('key', 'must be a non-empty string');
    return (await this.keys.findByHash(hashApiKey(key)))?.tenantId ?? null;
  }

  async listKeys(tenantId: string): Promise<ApiKey[]> {
    await this.#requireTenant(tenantId);
    return this.keys.listByTenant(tenantId);
  }

  async revokeKey(keyId: string): Promise<void> {
    if (!isWellFormedId(keyId) || !(await this.keys.revoke(canonicalId(keyId), this.clock.now()))) {
      throw new DomainError(ErrorCodes.API_KEY_NOT_FOUND, `API key ${keyId} not found`);
    }
  }

  async setAiTokenLimit(tenantId: string, limit: number | null): Promise<void> {
    if (limit !== null && (!Number.isSafeInteger(limit) || limit < 0)) {
      throw validationError('limit', 'must be a whole number of at least 0');
    }
    if (!(await this.tenants.setAiTokenLimit(tenantId, limit))) {
      throw new DomainError(ErrorCodes.TENANT_NOT_FOUND, `Tenant ${tenantId} not found`);
    }
  }

  async setAdminEmails(tenantId: string, emails: readonly string[]): Promise<void> {
    if (!Array.isArray(emails)) throw validationError('emails', 'must be a list of addresses');
    // By position, not by value: an `undefined` among them is as bad as any other.
    const bad = emails.findIndex((email) => !isMailAddress(email));
    if (bad !== -1) throw validationError('emails', `has an invalid address "${String(emails[bad])}"`);
    if (!(await this.tenants.setAdminEmails(tenantId, [...new Set(emails)]))) {
      throw new DomainError(ErrorCodes.TENANT_NOT_FOUND, `Tenant ${tenantId} not found`);
    }
  }

  #sameTenant(key: ApiKey, tenantId: string): ApiKey {
    if (key.tenantId !== tenantId) throw validationError('apiKey', 'is already registered to another tenant');
    return key;
  }

  async #requireTenant(id: string): Promise<Tenant> {
    const tenant = await this.tenants.findById(id);
    if (!tenant) throw new DomainError(ErrorCodes.TENANT_NOT_FOUND, `Tenant ${id} not found`);
    return tenant;
  }

  #newTenant(id: string, name: string): Tenant {
    if (!isValidTenantId(id)) throw validationError('tenantId', TENANT_ID_WORDS);
    requireDisplayName(name);
    return { id, name, aiTokenLimitMonthly: null, adminEmails: [], createdAt: this.clock.now() };
  }
}
