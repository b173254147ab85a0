import { expect } from 'chai';
import { defaultDashboardConfig, type DashboardConfigRecord } from '../../dashboard/dashboard-config.js';
import type { DashboardConfigRepository } from '../../dashboard/dashboard.ports.js';
import { tryToChange, useRepository, type RepositoryFactory } from './contract-fixture.js';

export function dashboardConfigRepositoryContract(name: string, factory: RepositoryFactory<DashboardConfigRepository>): void {
  describe(`DashboardConfigRepository contract: ${name}`, () => {
    const repo = useRepository(factory);
    const record = (tenantId: string, userId: string, templateId = 'executive_focus'): DashboardConfigRecord => ({
      tenantId,
      userId,
      config: { ...defaultDashboardConfig(), templateId },
      updatedBy: userId,
      updatedAt: new Date('2026-01-02T03:04:05.678Z'),
    });

    it('returns null for a user with no record', async () => {
      expect(await repo().find('acme', 'u1')).to.equal(null);
    });

    it('returns exactly the stored record, no storage fields added', async () => {
      const stored = await repo().upsert(record('acme', 'u1', 'ops'));
      expect(stored).to.deep.equal(record('acme', 'u1', 'ops'));
      expect(await repo().find('acme', 'u1')).to.deep.equal(record('acme', 'u1', 'ops'));
    });

    it('creates, then replaces, one record per (tenant, user)', async () => {
      await repo().upsert(record('acme', 'u1', 'first'));
      await repo().upsert(record('acme', 'u1', 'second'));
      const found = await repo().find('acme', 'u1');
      expect(found?.config.templateId).to.equal('second');
      expect(found?.config.slots).to.have.length(7);
      expect(found?.updatedAt.toISOString()).to.equal('2026-01-02T03:04:05.678Z');
    });

    it('keeps tenants and users apart', async () => {
      await repo().upsert(record('acme', 'u1', 'acme-u1'));
      await repo().upsert(record('other', 'u1', 'other-u1'));
      await repo().upsert(record('acme', 'u2', 'acme-u2'));
      expect((await repo().find('acme', 'u1'))?.config.templateId).to.equal('acme-u1');
      expect((await repo().find('other', 'u1'))?.config.templateId).to.equal('other-u1');
      expect((await repo().find('acme', 'u2'))?.config.templateId).to.equal('acme-u2');
    });

    it('ends with exactly one of the racing writes, whole', async () => {
      const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
      await Promise.all(ids.map((id) => repo().upsert(record('acme', 'u1', id))));
      const found = await repo().find('acme', 'u1');
      expect(ids).to.include(found?.config.templateId);
      expect(found?.config.slots).to.have.length(7);
    });

    it('returns records that never change the store when changed', async () => {
      const stored = await repo().upsert(record('acme', 'u1'));
      tryToChange(() => (stored.config.templateId = 'mutated'));
      const found = await repo().find('acme', 'u1');
      tryToChange(() => (found!.config.slots.length = 0));
      expect((await repo().find('acme', 'u1'))?.config).to.deep.equal(defaultDashboardConfig());
    });
  });
}
