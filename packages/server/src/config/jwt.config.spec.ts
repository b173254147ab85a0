import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { createJwtVerifier } from '@cms/adapter-koa';
import { ConfigError } from './env-reader.js';
import { loadConfig } from './service-config.js';

/** A public key PEM of the given kind, made fresh (no key files in the repository). */
function publicKeyPem(kind: 'rsa' | 'ec' | 'ed25519', option?: number | string): string {
  const pair =
    kind === 'rsa'
      ? generateKeyPairSync('rsa', { modulusLength: option as number })
      : kind === 'ec'
        ? generateKeyPairSync('ec', { namedCurve: option as string })
        : generateKeyPairSync('ed25519');
  return pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
}

/** A self-signed P-256 certificate (public material only: its private key was thrown away). */
const CERTIFICATE = [
  '-----BEGIN CERTIFICATE-----',
  'MIIBfTCCASOgAwIBAgIUTJxbnYmZ7DluBY4RwhdqwIV4kgQwCgYIKoZIzj0EAwIw',
  'EzERMA8GA1UEAwwIY21zLXRlc3QwIBcNMjYxMjAxMjMyMDI4WhgPMjEyNjExMDcy',
  'MzIwMjhaMBMxETAPBgNVBAMMCGNtcy10ZXN0MFkwEwYHKoZIzj0CAQYIKoZIzj0D',
  'AQcDQgAEftEnzzBw+kIQC/Uabj+IYSLrpYnlsYqO1WcdngNKTkLZL1W5tabtf1g9',
  'DozvzS7UgNy9aLosL0JbAHUiZ4olqaNTMFEwHQYDVR0OBBYEFAWZbCZ2tHxao+CJ',
  'NGIpEEvVFIsPMB8GA1UdIwQYMBaAFAWZbCZ2tHxao+CJNGIpEEvVFIsPMA8GA1Ud',
  'EwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSAAwRQIhAOqVQ5N0ShH/qNRIglXQalos',
  'z/Yv7OHFVKMd0dm96YiVAiAinVI8d8Xvh1OQgu4bvGE9cOjk5xvCznL5gJGBJb3B',
  'Tw==',
  '-----END CERTIFICATE-----',
].join('\n');

const refusal = (env: Record<string, string>): string => {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return (error as Error).message;
  }
  expect.fail(`start-up accepted ${Object.keys(env).join(', ')}`);
};

describe('loadConfig: bearer-token keys', () => {
  describe('when CMS_JWT_SECRET is shorter than 32 bytes', () => {
    it('refuses it in one line naming the variable, the rule and how to make a good one', () => {
      const message = refusal({ CMS_JWT_SECRET: 'a'.repeat(31) });
      expect(message).to.equal(
        'CMS_JWT_SECRET must be at least 32 bytes for HS256 (RFC 7518 §3.2), got 31: make one with `openssl rand -base64 48` or `npm run --silent admin -- secret generate`',
      );
      expect(message).not.to.contain('\n');
    });

    it('counts bytes, not characters, and refuses it outside production too', () => {
      // 16 two-byte characters are 32 bytes: enough. 3 characters in development: not.
      expect(loadConfig({ CMS_JWT_SECRET: 'é'.repeat(16) }).auth.jwtAlgorithm).to.equal('HS256');
      expect(refusal({ CMS_JWT_SECRET: 'abc', NODE_ENV: 'development' })).to.match(/^CMS_JWT_SECRET must be at least 32 bytes .* got 3:/);
    });

    it('refuses a weak secret even when a public key wins over it', () => {
      const message = refusal({ CMS_JWT_SECRET: 'short', CMS_JWT_PUBLIC_KEY: publicKeyPem('ec', 'P-256') });
      expect(message).to.match(/^CMS_JWT_SECRET /);
    });
  });

  describe('when CMS_JWT_SECRET has 32 bytes or more', () => {
    it('enables HS256', () => {
      const config = loadConfig({ CMS_JWT_SECRET: 'b'.repeat(32) });
      expect(config.auth).to.include({ jwtSecret: 'b'.repeat(32), jwtAlgorithm: 'HS256' });
    });
  });

  describe('when CMS_JWT_PUBLIC_KEY is set', () => {
    it('refuses an RSA key under 2048 bits', () => {
      expect(refusal({ CMS_JWT_PUBLIC_KEY: publicKeyPem('rsa', 1024) })).to.match(
        /^CMS_JWT_PUBLIC_KEY is an RSA key of 1024 bits; it must have at least 2048: make a key pair with `openssl genpkey/,
      );
    });

    it('accepts an RSA key of 2048 bits as RS256', () => {
      expect(loadConfig({ CMS_JWT_PUBLIC_KEY: publicKeyPem('rsa', 2048) }).auth.jwtAlgorithm).to.equal('RS256');
    });

    it('accepts a P-256 key as ES256, also with its line breaks written as \\n', () => {
      const pem = publicKeyPem('ec', 'P-256');
      expect(loadConfig({ CMS_JWT_PUBLIC_KEY: pem }).auth.jwtAlgorithm).to.equal('ES256');
      expect(loadConfig({ CMS_JWT_PUBLIC_KEY: pem.replace(/\n/g, '\\n') }).auth.jwtAlgorithm).to.equal('ES256');
    });

    it('refuses an EC key on another curve', () => {
      expect(refusal({ CMS_JWT_PUBLIC_KEY: publicKeyPem('ec', 'P-384') })).to.match(
        /^CMS_JWT_PUBLIC_KEY is an EC key on curve secp384r1; it must be on P-256 \(ES256\)/,
      );
    });

    it('refuses a private key, a certificate or a PKCS#1 key, saying a public key (SPKI PEM) is expected', () => {
      // createPublicKey takes each of these (it derives the public key); the verifier's importSPKI
      // then stopped start-up with `TypeError: "spki" must be SPKI formatted string`.
      const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const cases: Array<[string, string, RegExp]> = [
        ['an RSA private key (PKCS#8)', rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), /^CMS_JWT_PUBLIC_KEY holds a private key \(PRIVATE KEY\); a public key \(SPKI PEM, -----BEGIN PUBLIC KEY-----\) is expected: .*openssl pkey -in private\.pem -pubout/],
        ['an RSA private key (PKCS#1)', rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(), /^CMS_JWT_PUBLIC_KEY holds a private key \(RSA PRIVATE KEY\); a public key \(SPKI PEM/],
        ['a P-256 private key (SEC1)', ec.privateKey.export({ type: 'sec1', format: 'pem' }).toString(), /^CMS_JWT_PUBLIC_KEY holds a private key \(EC PRIVATE KEY\); a public key \(SPKI PEM/],
        ['an X.509 certificate', CERTIFICATE, /^CMS_JWT_PUBLIC_KEY holds an X\.509 certificate; a public key \(SPKI PEM, -----BEGIN PUBLIC KEY-----\) is expected: `openssl x509/],
        ['an RSA public key in PKCS#1 form', rsa.publicKey.export({ type: 'pkcs1', format: 'pem' }).toString(), /^CMS_JWT_PUBLIC_KEY holds an RSA public key in PKCS#1 form; a public key \(SPKI PEM/],
        ['a public key followed by a private key', `${publicKeyPem('ec', 'P-256')}${ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()}`, /^CMS_JWT_PUBLIC_KEY must hold one PEM public key and nothing else; a public key \(SPKI PEM/],
      ];
      for (const [what, pem, message] of cases) {
        const refused = refusal({ CMS_JWT_PUBLIC_KEY: pem });
        expect(refused, what).to.match(message);
        expect(refused, what).not.to.contain('\n');
        expect(refused, what).not.to.contain(pem.split('\n')[1]!.slice(0, 16)); // nothing of the key itself
      }
    });

    it('takes a public key with line breaks around it or CRLF line ends, and hands the verifier the SPKI PEM as Node writes it', async () => {
      const pem = publicKeyPem('ec', 'P-256');
      const config = loadConfig({ CMS_JWT_PUBLIC_KEY: `\n${pem.replace(/\n/g, '\r\n')}\n\n` });
      expect(config.auth).to.include({ jwtPublicKeyPem: pem, jwtAlgorithm: 'ES256' });
      // createPublicKey takes a leading line break; the verifier's importSPKI refused it at start-up.
      await createJwtVerifier({ publicKeyPem: config.auth.jwtPublicKeyPem! });
    });

    it('refuses another key type and text that is no PEM key', () => {
      expect(refusal({ CMS_JWT_PUBLIC_KEY: publicKeyPem('ed25519') })).to.match(/^CMS_JWT_PUBLIC_KEY has key type ed25519; it must be RSA/);
      expect(refusal({ CMS_JWT_PUBLIC_KEY: 'not a key' })).to.match(/^CMS_JWT_PUBLIC_KEY must be a PEM public key/);
    });

    it('wins over the secret', () => {
      const config = loadConfig({ CMS_JWT_SECRET: 'c'.repeat(40), CMS_JWT_PUBLIC_KEY: publicKeyPem('rsa', 2048) });
      expect(config.auth.jwtAlgorithm).to.equal('RS256');
    });
  });

  describe('when neither is set', () => {
    it('turns bearer tokens off', () => {
      expect(loadConfig({}).auth).to.include({ jwtSecret: undefined, jwtPublicKeyPem: undefined, jwtAlgorithm: undefined });
    });
  });
});

describe('loadConfig: production mode', () => {
  it('is on only for NODE_ENV=production', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).production).to.equal(true);
    expect(loadConfig({ NODE_ENV: 'development' }).production).to.equal(false);
    expect(loadConfig({ NODE_ENV: 'test' }).production).to.equal(false);
    expect(loadConfig({}).production).to.equal(false);
  });

  it('refuses any other NODE_ENV, naming it, rather than run a misspelt production as development', () => {
    for (const value of ['Production', 'prod', 'PRODUCTION', 'staging']) {
      expect(() => loadConfig({ NODE_ENV: value }), value).to.throw(`NODE_ENV must be one of production, development, test (got "${value}")`);
    }
  });
});
