import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { hashApiKey } from './api-key-secret.js';
import type { ApiKeyRepository } from './tenancy.ports.js';

export interface ApiKeyPrincipal {
  readonly tenantId: string;
  readonly keyId: string;
}

/**
 * Resolves an API key to its tenant. Missing, unknown and revoked keys are all `UNAUTHORIZED`.
 * The key record is read on every call, so a revocation holds from the next request on every
 * instance; only the digest of a key that worked is remembered (hashing was the largest part
 * of resolving a key), for at most `DIGEST_MEMO_SIZE` keys.
 */
export class AuthenticateApiKey {
  readonly #digests = new Map<string, string>();

  constructor(private readonly keys: ApiKeyRepository) {}

  async execute(rawKey: string | undefined): Promise<ApiKeyPrincipal> {
    if (!rawKey || rawKey.length > API_KEY_MAX_LENGTH) throw new DomainError(ErrorCodes.UNAUTHORIZED, 'Unauthorized');
    const hash = this.#digests.get(rawKey) ?? hashApiKey(rawKey);
    const key = await this.keys.findByHash(hash);
    if (!key || key.revokedAt !== null || key.hash !== hash) {
      this.#digests.delete(rawKey);
      throw new DomainError(ErrorCodes.UNAUTHORIZED, 'Unauthorized');
    }
    this.#remember(rawKey, hash);
    return { tenantId: key.tenantId, keyId: key.id };
  }

  #remember(rawKey: string, hash: string): void {
    if (this.#digests.has(rawKey)) return;
    if (this.#digests.size >= DIGEST_MEMO_SIZE) this.#digests.clear();
    this.#digests.set(rawKey, hash);
  }
}

/** The longest key a request may present: longer is refused unread (and `CMS_API_KEYS` refuses to configure one). */
export const API_KEY_MAX_LENGTH = 512;

/** Keys whose digests are remembered; past it the memo starts again (it only saves hashing). */
export const DIGEST_MEMO_SIZE = 4096;
