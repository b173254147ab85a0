/**
 * Bearer-token keys, checked for strength at start-up (CONTRACT §1 item 2, version 1.2). A key
 * too weak to trust stops start-up in every mode: a secret accepted on a laptop becomes the
 * production one by copy and paste.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { ConfigError, type EnvReader } from './env-reader.js';

/** RFC 7518 §3.2: an HS256 key at least as long as the hash output. */
export const MIN_HS256_SECRET_BYTES = 32;
export const MIN_RSA_MODULUS_BITS = 2048;

export type JwtAlgorithm = 'HS256' | 'RS256' | 'ES256';

export interface JwtConfig {
  readonly secret: string | undefined;
  readonly publicKeyPem: string | undefined;
  /** The algorithm bearer tokens are verified with; undefined when bearer tokens are off. */
  readonly algorithm: JwtAlgorithm | undefined;
}

const MAKE_SECRET = 'make one with `openssl rand -base64 48` or `npm run --silent admin -- secret generate`';
const MAKE_KEY_PAIR = 'make a key pair with `openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:3072` or `openssl ecparam -name prime256v1 -genkey`';

/** `CMS_JWT_PUBLIC_KEY` wins over `CMS_JWT_SECRET`; each one given is checked, so a weak leftover secret is not ignored silently. */
export function loadJwtConfig(read: EnvReader): JwtConfig {
  const secret = read.raw('CMS_JWT_SECRET');
  const publicKeyPem = read.raw('CMS_JWT_PUBLIC_KEY')?.replace(/\\n/g, '\n');
  if (secret !== undefined) checkSecret(secret);
  const keyAlgorithm = publicKeyPem === undefined ? undefined : algorithmOfPublicKey(publicKeyPem);
  return { secret, publicKeyPem, algorithm: keyAlgorithm ?? (secret === undefined ? undefined : 'HS256') };
}

function checkSecret(secret: string): void {
  const bytes = Buffer.byteLength(secret, 'utf8');
  if (bytes < MIN_HS256_SECRET_BYTES) {
    throw new ConfigError(
      'CMS_JWT_SECRET',
      `must be at least ${MIN_HS256_SECRET_BYTES} bytes for HS256 (RFC 7518 §3.2), got ${bytes}: ${MAKE_SECRET}`,
    );
  }
}

/** RS256 for an RSA key of 2048 bits or more, ES256 for a P-256 key; anything else stops start-up. */
function algorithmOfPublicKey(pem: string): JwtAlgorithm {
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    throw new ConfigError('CMS_JWT_PUBLIC_KEY', `must be a PEM public key (RSA of ${MIN_RSA_MODULUS_BITS} bits or more, or EC P-256): ${MAKE_KEY_PAIR}`);
  }
  const details = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType === 'rsa') {
    const bits = details.modulusLength ?? 0;
    if (bits < MIN_RSA_MODULUS_BITS) {
      throw new ConfigError('CMS_JWT_PUBLIC_KEY', `is an RSA key of ${bits} bits; it must have at least ${MIN_RSA_MODULUS_BITS}: ${MAKE_KEY_PAIR}`);
    }
    return 'RS256';
  }
  if (key.asymmetricKeyType === 'ec') {
    if (details.namedCurve !== 'prime256v1') {
      throw new ConfigError('CMS_JWT_PUBLIC_KEY', `is an EC key on curve ${details.namedCurve ?? 'unknown'}; it must be on P-256 (ES256): ${MAKE_KEY_PAIR}`);
    }
    return 'ES256';
  }
  throw new ConfigError('CMS_JWT_PUBLIC_KEY', `has key type ${key.asymmetricKeyType ?? 'unknown'}; it must be RSA (RS256) or EC P-256 (ES256): ${MAKE_KEY_PAIR}`);
}
