import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { isWellFormedText } from '../shared/well-formed-text.js';
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

  /**
   * Anything but a string of 1 to `API_KEY_MAX_LENGTH` characters is no key (an embedder may pass
   * what its framework parsed: `?apiKey[]=x` is an array); so is text that is not well-formed
   * Unicode, which hashing would turn into another key's (a lone surrogate becomes U+FFFD), and
   * which `registerKey` refuses to register.
   */
  async execute(rawKey: string | undefined): Promise<ApiKeyPrincipal> {
    if (typeof rawKey !== 'string' || rawKey === '' || rawKey.length > API_KEY_MAX_LENGTH) throw unauthorized();
    const hash = this.#digests.get(rawKey) ?? (isWellFormedText(rawKey) ? hashApiKey(rawKey) : undefined);
    if (hash === undefined) throw unauthorized();
    const key = await this.keys.findByHash(hash);
    if (!key || key.revokedAt !== null || key.hash !== hash) {
      this.#digests.delete(rawKey);
      throw unauthorized();
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

const unauthorized = (): DomainError => new DomainError(ErrorCodes.UNAUTHORIZED, 'Unauthorized');

/** The longest key a request may present: longer is refused unread (and `CMS_API_KEYS` refuses to configure one). */
export const API_KEY_MAX_LENGTH = 512;

/** Keys whose digests are remembered; past it the memo starts again (it only saves hashing). */
export const DIGEST_MEMO_SIZE = 4096;
