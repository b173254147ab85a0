import { expect } from 'chai';
import { MemoryTenantRepository } from '../../memory/memory-tenancy.repository.js';
import { ManualClock } from '../../shared/clock.js';
import { newId } from '../../shared/ids.js';
import { hashApiKey } from '../../tenancy/api-key-secret.js';
import { ManageTenants } from '../../tenancy/manage-tenants.use-case.js';
import type { ApiKeyRepository, TenantRepository } from '../../tenancy/tenancy.ports.js';
import type { ApiKey } from '../../tenancy/tenant.js';
import { keyFragmentsIn } from '../key-fragments.js';
import { useRepository, type RepositoryFactory } from './contract-fixture.js';

export function tenantRepositoryContract(name: string, factory: RepositoryFactory<TenantRepository>): void {
  describe(`TenantRepository contract: ${name}`, () => {
    const repo = useRepository(factory);
    const tenant = (id: string) => ({ id, name: `Tenant ${id}`, aiTokenLimitMonthly: null, adminEmails: [] as string[], createdAt: new Date('2026-01-02T03:04:05.678Z') });

    it('stores a tenant and finds it by id', async () => {
      expect(await repo().insert(tenant('acme'))).to.equal(true);
      const found = await repo().findById('acme');
      expect(found).to.deep.equal(tenant('acme'));
      expect(await repo().findById('other')).to.equal(null);
    });

    it('refuses a second tenant with the same id, even when inserts race', async () => {
      const results = await Promise.all(Array.from({ length: 6 }, () => repo().insert(tenant('acme'))));
      expect(results.filter(Boolean)).to.have.length(1);
      expect(await repo().list()).to.have.length(1);
    });

    it('lists every tenant', async () => {
      await repo().insert(tenant('acme'));
      await repo().insert(tenant('other'));
      const listed = await repo().list();
      expect(listed.map((t) => t.id).sort()).to.deep.equal(['acme', 'other']);
      expect(listed.find((t) => t.id === 'other')).to.deep.equal(tenant('other'));
    });

    it('sets and clears the tenant AI token limit', async () => {
      await repo().insert(tenant('acme'));
      expect(await repo().setAiTokenLimit('acme', 500)).to.equal(true);
      expect((await repo().findById('acme'))?.aiTokenLimitMonthly).to.equal(500);
      expect(await repo().setAiTokenLimit('acme', null)).to.equal(true);
      expect((await repo().findById('acme'))?.aiTokenLimitMonthly).to.equal(null);
      expect(await repo().setAiTokenLimit('ghost', 1)).to.equal(false);
    });

    it('replaces the admin e-mail addresses', async () => {
      await repo().insert(tenant('acme'));
      expect(await repo().setAdminEmails('acme', ['a@acme.test', 'b@acme.test'])).to.equal(true);
      expect((await repo().findById('acme'))?.adminEmails).to.deep.equal(['a@acme.test', 'b@acme.test']);
      expect(await repo().setAdminEmails('acme', [])).to.equal(true);
      expect((await repo().findById('acme'))?.adminEmails).to.deep.equal([]);
      expect(await repo().setAdminEmails('ghost', [])).to.equal(false);
    });
  });
}

export function apiKeyRepositoryContract(name: string, factory: RepositoryFactory<ApiKeyRepository>): void {
  describe(`ApiKeyRepository contract: ${name}`, () => {
    const repo = useRepository(factory);
    const key = (tenantId: string, hash: string): ApiKey => ({
      id: newId(),
      tenantId,
      name: 'k',
      hash,
      createdAt: new Date('2026-01-02T03:04:05.678Z'),
      revokedAt: null,
    });

    it('finds a key by its hash and lists keys per tenant', async () => {
      const a = key('acme', 'a'.repeat(64));
      await repo().insert(a);
      await repo().insert(key('other', 'b'.repeat(64)));
      expect(await repo().findByHash('a'.repeat(64))).to.deep.equal(a);
      expect(await repo().findByHash('c'.repeat(64))).to.equal(null);
      expect((await repo().listByTenant('acme')).map((k) => k.id)).to.deep.equal([a.id]);
    });

    it('lists a tenant’s keys oldest first', async () => {
      const keys = ['a', 'b', 'c'].map((c, i) => ({ ...key('acme', c.repeat(64)), createdAt: new Date(Date.UTC(2026, 0, 3 - i)) }));
      for (const k of keys) await repo().insert(k);
      expect((await repo().listByTenant('acme')).map((k) => k.hash[0])).to.deep.equal(['c', 'b', 'a']);
    });

    it('rejects a second key with the same hash', async () => {
      await repo().insert(key('acme', 'a'.repeat(64)));
      let failed = false;
      await repo().insert(key('other', 'a'.repeat(64))).catch(() => (failed = true));
      expect(failed).to.equal(true);
      expect((await repo().findByHash('a'.repeat(64)))?.tenantId).to.equal('acme');
    });

    it('keeps nothing of an issued or a configured key in clear', async () => {
      const manage = new ManageTenants(new MemoryTenantRepository(), repo(), new ManualClock('2026-01-02T03:04:05.678Z'));
      await manage.createTenant('acme');
      const issued = (await manage.issueKey('acme', 'web')).key;
      const configured = 'Kq7-Zw!Rm2Xv9LpT'; // 16 characters, the shortest CMS_API_KEYS accepts
      await manage.registerKey('acme', configured);
      const listed = await repo().listByTenant('acme');
      const found = await Promise.all([issued, configured].map((key) => repo().findByHash(hashApiKey(key))));
      expect(found.map((key) => key?.tenantId)).to.deep.equal(['acme', 'acme']);
      for (const key of [issued, configured]) {
        expect(keyFragmentsIn(JSON.stringify([listed, found]), key), key).to.deep.equal([]);
      }
    });

    it('revokes a key once and keeps the first revocation time', async () => {
      const a = key('acme', 'a'.repeat(64));
      await repo().insert(a);
      const first = new Date('2026-02-01T00:00:00.000Z');
      expect(await repo().revoke(a.id, first)).to.equal(true);
      expect(await repo().revoke(a.id, new Date('2026-03-01T00:00:00.000Z'))).to.equal(true);
      expect((await repo().findByHash(a.hash))?.revokedAt?.toISOString()).to.equal(first.toISOString());
      expect(await repo().revoke(newId(), first)).to.equal(false);
      expect(await repo().revoke('not-an-id', first)).to.equal(false);
    });
  });
}
