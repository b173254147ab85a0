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

    describe('replaceIf (a save under If-Match)', () => {
      it('stores the record while the stored layout is still the one read, and answers it', async () => {
        const read = await repo().upsert(record('acme', 'u1', 'first'));
        const stored = await repo().replaceIf(record('acme', 'u1', 'second'), read);
        expect(stored).to.deep.equal(record('acme', 'u1', 'second'));
        expect((await repo().find('acme', 'u1'))?.config.templateId).to.equal('second');
      });

      it('answers null and writes nothing once another save changed the layout', async () => {
        const read = await repo().upsert(record('acme', 'u1', 'first'));
        await repo().upsert(record('acme', 'u1', 'meanwhile'));
        expect(await repo().replaceIf(record('acme', 'u1', 'late'), read)).to.equal(null);
        expect((await repo().find('acme', 'u1'))?.config.templateId).to.equal('meanwhile');
      });

      it('with no record read, stores the first one and answers null, writing nothing, once one is stored', async () => {
        expect(await repo().replaceIf(record('acme', 'u1', 'first'), null)).to.deep.equal(record('acme', 'u1', 'first'));
        expect(await repo().replaceIf(record('acme', 'u1', 'second'), null)).to.equal(null);
        expect((await repo().find('acme', 'u1'))?.config.templateId).to.equal('first');
        expect(await repo().replaceIf(record('acme', 'u2', 'other user'), null)).to.not.equal(null);
      });

      it('lets exactly one of eight racing saves land, whether a record or none was read', async () => {
        const race = async (userId: string, read: DashboardConfigRecord | null) => {
          const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
          const results = await Promise.all(ids.map((id) => repo().replaceIf(record('acme', userId, id), read)));
          const landed = results.filter((result) => result !== null);
          expect(landed, userId).to.have.length(1);
          expect((await repo().find('acme', userId))?.config.templateId).to.equal(landed[0]!.config.templateId);
        };
        await race('u-new', null);
        await race('u1', await repo().upsert(record('acme', 'u1', 'start')));
      });
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
