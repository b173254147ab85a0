import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { hashApiKey } from './api-key-secret.js';
import type { ApiKeyRepository } from './tenancy.ports.js';

export interface ApiKeyPrincipal {
  readonly tenantId: string;
  readonly keyId: string;
}

/** Resolves an API key to its tenant. Missing, unknown and revoked keys are all `UNAUTHORIZED`. */
export class AuthenticateApiKey {
  constructor(private readonly keys: ApiKeyRepository) {}

  async execute(rawKey: string | undefined): Promise<ApiKeyPrincipal> {
    if (!rawKey || rawKey.length > 512) throw new DomainError(ErrorCodes.UNAUTHORIZED, 'Unauthorized');
    const hash = hashApiKey(rawKey);
    const key = await this.keys.findByHash(hash);
    if (!key || key.revokedAt !== null || key.hash !== hash) {
      throw new DomainError(ErrorCodes.UNAUTHORIZED, 'Unauthorized');
    }
    return { tenantId: key.tenantId, keyId: key.id };
  }
}
