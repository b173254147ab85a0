/**
 * Bearer token verification with `jose`: HS256 with a shared secret, or RS256/ES256 with a PEM
 * public key. Any failure (bad signature, expired, wrong algorithm, bad claims) is one outcome:
 * the token is not accepted.
 *
 * A signature check through WebCrypto is a large share of a request's cost (decision 0002 has
 * the figures), for a result that cannot change while the key stays the same: so the claims of a token that passed
 * are remembered (at most `VERIFIED_MEMO_SIZE` tokens; the memo starts again when full) and a
 * repeat of the same token only has its time window (`exp`, `nbf`) checked again, the way jose
 * checks it. Tokens that failed are never kept.
 */
import { importSPKI, jwtVerify, type CryptoKey, type KeyObject } from 'jose';
import { ROLES, USER_ID_PATTERN, type Role } from '@cms/core';

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
  /** Milliseconds since the epoch; tests move it. */
  readonly now?: () => number;
}

export const VERIFIED_MEMO_SIZE = 4096;

interface Verified {
  readonly claims: BearerClaims;
  /** `exp` and `nbf` in seconds, when the token has them. */
  readonly expiresAt: number | undefined;
  readonly notBefore: number | undefined;
}

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
  const now = settings.now ?? Date.now;
  const verified = new Map<string, Verified>();
  const check = async (token: string): Promise<Verified | undefined> => {
    if (!key) return undefined;
    try {
      const { payload } = await jwtVerify(token, key, { algorithms, currentDate: new Date(now()) });
      // Absent is member (CONTRACT §1.2); a role given, null included, must be one of the four (decision 0002).
      const role = payload.role === undefined ? 'member' : payload.role;
      if (typeof payload.sub !== 'string' || !USER_ID_PATTERN.test(payload.sub)) return undefined;
      if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) return undefined;
      if (payload.tenant !== undefined && typeof payload.tenant !== 'string') return undefined;
      const claims = { userId: payload.sub, role: role as Role, tenant: payload.tenant as string | undefined };
      return { claims, expiresAt: payload.exp, notBefore: payload.nbf };
    } catch {
      return undefined;
    }
  };
  return {
    async verify(token) {
      const seconds = Math.floor(now() / 1000); // as jose compares, with no clock tolerance
      const known = verified.get(token);
      if (known) return withinWindow(known, seconds) ? known.claims : undefined;
      const fresh = await check(token);
      if (!fresh) return undefined;
      if (verified.size >= VERIFIED_MEMO_SIZE) verified.clear();
      verified.set(token, fresh);
      return fresh.claims;
    },
  };
}

const withinWindow = ({ expiresAt, notBefore }: Verified, seconds: number) =>
  (expiresAt === undefined || expiresAt > seconds) && (notBefore === undefined || notBefore <= seconds);

/** RS256 for RSA keys, ES256 for P-256 EC keys: the two the contract names. */
async function algorithmOf(pem: string): Promise<string> {
  const { createPublicKey } = await import('node:crypto');
  const type = createPublicKey(pem).asymmetricKeyType;
  if (type === 'rsa') return 'RS256';
  if (type === 'ec') return 'ES256';
  throw new Error(`CMS_JWT_PUBLIC_KEY: unsupported key type ${type}; use an RSA or P-256 EC public key`);
}
