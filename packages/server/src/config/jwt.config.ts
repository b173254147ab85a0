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
  const given = read.raw('CMS_JWT_PUBLIC_KEY')?.replace(/\\n/g, '\n');
  if (secret !== undefined) checkSecret(secret);
  const publicKey = given === undefined ? undefined : publicKeyOf(given);
  return {
    secret,
    publicKeyPem: publicKey?.pem,
    algorithm: publicKey?.algorithm ?? (secret === undefined ? undefined : 'HS256'),
  };
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

/** One SPKI PEM block and nothing else, what the verifier (jose `importSPKI`) takes: base64 and whitespace between its two lines. */
const SPKI_PEM = /^-----BEGIN PUBLIC KEY-----[A-Za-z0-9+/=\s]+-----END PUBLIC KEY-----$/;
const PEM_LABEL = /-----BEGIN ([A-Z0-9 ]+)-----/;

/**
 * The public key as SPKI PEM (as Node writes it, so the verifier reads exactly what was checked),
 * with the algorithm it verifies. `createPublicKey` alone would also take a private key (it
 * derives the public one) or a certificate, which the verifier then refused with a TypeError
 * naming nothing; a private key has no business in the verifying service's environment anyway.
 */
function publicKeyOf(given: string): { pem: string; algorithm: JwtAlgorithm } {
  const text = given.trim();
  if (!SPKI_PEM.test(text)) throw new ConfigError('CMS_JWT_PUBLIC_KEY', notSpki(PEM_LABEL.exec(text)?.[1]));
  let key: KeyObject;
  try {
    key = createPublicKey(text);
  } catch {
    throw new ConfigError('CMS_JWT_PUBLIC_KEY', `must be a PEM public key (RSA of ${MIN_RSA_MODULUS_BITS} bits or more, or EC P-256): ${MAKE_KEY_PAIR}`);
  }
  return { pem: key.export({ type: 'spki', format: 'pem' }).toString(), algorithm: algorithmOf(key) };
}

/** What was given instead of an SPKI PEM public key, and how to get one from it. */
function notSpki(label: string | undefined): string {
  const expected = 'a public key (SPKI PEM, -----BEGIN PUBLIC KEY-----) is expected';
  if (label !== undefined && /PRIVATE KEY$/.test(label)) {
    return `holds a private key (${label}); ${expected}: keep the private key where tokens are signed and give the public one, \`openssl pkey -in private.pem -pubout\``;
  }
  if (label === 'CERTIFICATE') return `holds an X.509 certificate; ${expected}: \`openssl x509 -in cert.pem -pubkey -noout\` prints it`;
  if (label === 'RSA PUBLIC KEY') return `holds an RSA public key in PKCS#1 form; ${expected}: \`openssl rsa -RSAPublicKey_in -in key.pem -pubout\` converts it`;
  if (label === 'PUBLIC KEY') return `must hold one PEM public key and nothing else; ${expected}`;
  return `must be a PEM public key (RSA of ${MIN_RSA_MODULUS_BITS} bits or more, or EC P-256); ${expected}: ${MAKE_KEY_PAIR}`;
}

/** RS256 for an RSA key of 2048 bits or more, ES256 for a P-256 key; anything else stops start-up. */
function algorithmOf(key: KeyObject): JwtAlgorithm {
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
