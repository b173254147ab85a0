import { expect } from 'chai';
import { MemoryApiKeyRepository, MemoryTenantRepository } from '../memory/memory-tenancy.repository.js';
import { ManualClock } from '../shared/clock.js';
import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { keyFragmentsIn } from '../testing/key-fragments.js';
import { hashApiKey } from './api-key-secret.js';
import { AuthenticateApiKey, DIGEST_MEMO_SIZE } from './authenticate-api-key.use-case.js';
import { ManageTenants } from './manage-tenants.use-case.js';
import { apiKeyFingerprint } from './tenant.js';

describe('ManageTenants and AuthenticateApiKey', () => {
  const setup = () => {
    const keys = new MemoryApiKeyRepository();
    const manage = new ManageTenants(new MemoryTenantRepository(), keys, new ManualClock());
    return { keys, manage, authenticate: new AuthenticateApiKey(keys) };
  };
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'resolved', (e: { code: string }) => e.code);

  describe('when a key is issued', () => {
    it('stores only its hash and authenticates it to its tenant', async () => {
      const { keys, manage, authenticate } = setup();
      await manage.createTenant('acme');
      const issued = await manage.issueKey('acme', 'front end');
      const [stored] = await keys.listByTenant('acme');
      expect(stored?.hash).to.equal(hashApiKey(issued.key));
      expect(keyFragmentsIn(JSON.stringify([stored, issued.record]), issued.key)).to.deep.equal([]);
      expect(await authenticate.execute(issued.key)).to.deep.equal({ tenantId: 'acme', keyId: issued.record.id });
    });

    it('names it by a fingerprint of its digest, not by any part of it', async () => {
      const { manage } = setup();
      await manage.createTenant('acme');
      const record = await manage.registerKey('acme', 'abc');
      // SHA-256("abc") is ba7816bf8f01cfea… (FIPS 180-2, appendix B.1).
      expect(apiKeyFingerprint(record)).to.equal('sha256:ba7816bf');
      const issued = await manage.issueKey('acme');
      expect(apiKeyFingerprint(issued.record)).to.equal(`sha256:${hashApiKey(issued.key).slice(0, 8)}`);
    });

    it('refuses the key once revoked', async () => {
      const { manage, authenticate } = setup();
      await manage.createTenant('acme');
      const issued = await manage.issueKey('acme');
      expect(await codeOf(authenticate.execute(issued.key))).to.equal('resolved');
      await manage.revokeKey(issued.record.id.toUpperCase());
      expect(await codeOf(authenticate.execute(issued.key))).to.equal(ErrorCodes.UNAUTHORIZED);
    });

    it('keeps authenticating every key after more keys than its digest memo holds', async () => {
      const { manage, authenticate } = setup();
      await manage.createTenant('acme');
      const issued = [];
      for (let i = 0; i <= DIGEST_MEMO_SIZE; i++) issued.push(await manage.issueKey('acme'));
      for (const { key } of issued) await authenticate.execute(key);
      for (const { key, record } of [issued[0]!, issued.at(-1)!]) {
        expect(await authenticate.execute(key)).to.deep.equal({ tenantId: 'acme', keyId: record.id });
      }
      expect(await codeOf(authenticate.execute(`${issued[0]!.key}x`))).to.equal(ErrorCodes.UNAUTHORIZED);
    });
  });

  describe('when a key is configured', () => {
    it('stores nothing of it in clear, even of a key of 16 characters', async () => {
      const { keys, manage, authenticate } = setup();
      await manage.ensureTenant('acme');
      const key = 'Kq7-Zw!Rm2Xv9LpT';
      const record = await manage.registerKey('acme', key);
      expect(keyFragmentsIn(JSON.stringify([record, await keys.listByTenant('acme')]), key)).to.deep.equal([]);
      expect(await authenticate.execute(key)).to.deep.equal({ tenantId: 'acme', keyId: record.id });
    });
  });

  describe('when credentials or names are wrong', () => {
    it('answers UNAUTHORIZED for missing and unknown keys', async () => {
      const { authenticate } = setup();
      expect(await codeOf(authenticate.execute(undefined))).to.equal(ErrorCodes.UNAUTHORIZED);
      expect(await codeOf(authenticate.execute('cms_unknown'))).to.equal(ErrorCodes.UNAUTHORIZED);
    });

    it('rejects bad tenant ids, duplicate tenants and keys for unknown tenants', async () => {
      const { manage } = setup();
      expect(await codeOf(manage.createTenant('Bad Id'))).to.equal(ErrorCodes.VALIDATION_FAILED);
      // In words, never the expression (issue 16 item 2).
      const refusal = await manage.createTenant('-acme').catch((caught: Error) => caught.message);
      expect(refusal).to.equal('tenantId must be 1 to 64 lowercase letters, digits and hyphens, starting with a letter or digit');
      await manage.createTenant('acme');
      expect(await codeOf(manage.createTenant('acme'))).to.equal(ErrorCodes.TENANT_EXISTS);
      expect(await codeOf(manage.issueKey('ghost'))).to.equal(ErrorCodes.TENANT_NOT_FOUND);
      expect(await codeOf(manage.revokeKey('nope'))).to.equal(ErrorCodes.API_KEY_NOT_FOUND);
    });

    it('refuses a tenant or key name that is blank, too long or holds a control character', async () => {
      const { manage } = setup();
      await manage.createTenant('acme', 'Acme Inc.');
      const refused = ['', '   ', 'Acme\nAPI key 0000 revoked', 'tab\there', '\u0085next', 'x'.repeat(101)];
      for (const name of refused) {
        const error = await manage.createTenant('other', name).catch((caught: unknown) => caught);
        expect(error, JSON.stringify(name)).to.be.instanceOf(DomainError).and.to.include({ code: ErrorCodes.VALIDATION_FAILED });
        expect((error as DomainError).message).to.equal('name must be 1 to 100 characters, not blank, without control characters such as line breaks');
        expect(await codeOf(manage.issueKey('acme', name)), JSON.stringify(name)).to.equal(ErrorCodes.VALIDATION_FAILED);
      }
      expect(await manage.listKeys('acme')).to.deep.equal([]);
      expect((await manage.createTenant('other', 'Ölçü – ünïcode '.padEnd(100, '·'))).name).to.have.length(100);
    });

    it('registers a configured key idempotently but never for two tenants', async () => {
      const { manage } = setup();
      await manage.ensureTenant('acme');
      await manage.ensureTenant('acme');
      await manage.ensureTenant('other');
      const first = await manage.registerKey('acme', 'configured-key');
      expect((await manage.registerKey('acme', 'configured-key')).id).to.equal(first.id);
      expect(await codeOf(manage.registerKey('other', 'configured-key'))).to.equal(ErrorCodes.VALIDATION_FAILED);
    });

    it('registers one record when instances register the same key at once', async () => {
      const { keys, manage } = setup();
      await manage.ensureTenant('acme');
      const records = await Promise.all([1, 2, 3].map(() => manage.registerKey('acme', 'configured-key')));
      expect(new Set(records.map((r) => r.id)).size).to.equal(1);
      expect(await keys.listByTenant('acme')).to.have.length(1);
    });
  });
});
