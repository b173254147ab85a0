/**
 * Bearer token verification with `jose`: HS256 with a shared secret, or RS256/ES256 with a PEM
 * public key. Any failure (bad signature, expired, wrong algorithm, bad claims) is one outcome:
 * the token is not accepted.
 */
import { importSPKI, jwtVerify, type CryptoKey, type KeyObject } from 'jose';
import { ROLES, type Role } from '@cms/core';

export interface BearerClaims {
  readonly userId: string;
  readonly role: Role;
  readonly tenant: string | undefined;
}

export interface BearerVerifier {
  /** The token's claims, or undefined when the token is not acceptable. */
  verify(token: string): Promise<BearerClaims | undefined>;
}

export interface JwtSettings {
  readonly secret?: string;
  readonly publicKeyPem?: string;
}

const USER_ID = /^[A-Za-z0-9_.:@-]{1,128}$/;

export async function createJwtVerifier(settings: JwtSettings): Promise<BearerVerifier> {
  let key: Uint8Array | CryptoKey | KeyObject | undefined;
  let algorithms: string[] = [];
  if (settings.publicKeyPem) {
    algorithms = [await algorithmOf(settings.publicKeyPem)];
    key = await importSPKI(settings.publicKeyPem, algorithms[0]!);
  } else if (settings.secret) {
    algorithms = ['HS256'];
    // Imported once as a CryptoKey: given the raw bytes, jose imports them again on every
    // verification, which the benchmark's profile showed as ~15% of a bearer request's time.
    key = await crypto.subtle.importKey('raw', new TextEncoder().encode(settings.secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  }
  return {
    async verify(token) {
      if (!key) return undefined;
      try {
        const { payload } = await jwtVerify(token, key, { algorithms });
        const role = payload.role ?? 'member';
        if (typeof payload.sub !== 'string' || !USER_ID.test(payload.sub)) return undefined;
        if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) return undefined;
        if (payload.tenant !== undefined && typeof payload.tenant !== 'string') return undefined;
        return { userId: payload.sub, role: role as Role, tenant: payload.tenant as string | undefined };
      } catch {
        return undefined;
      }
    },
  };
}

/** RS256 for RSA keys, ES256 for P-256 EC keys: the two the contract names. */
async function algorithmOf(pem: string): Promise<string> {
  const { createPublicKey } = await import('node:crypto');
  const type = createPublicKey(pem).asymmetricKeyType;
  if (type === 'rsa') return 'RS256';
  if (type === 'ec') return 'ES256';
  throw new Error(`CMS_JWT_PUBLIC_KEY: unsupported key type ${type}; use an RSA or P-256 EC public key`);
}
