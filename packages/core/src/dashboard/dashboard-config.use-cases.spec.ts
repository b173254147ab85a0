import { expect } from 'chai';
import { MemoryDashboardConfigRepository } from '../memory/memory-dashboard-config.repository.js';
import { ManualClock } from '../shared/clock.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { anonymousCaller, userCaller } from '../testing/callers.js';
import { defaultDashboardConfig } from './dashboard-config.js';
import { GetDashboardConfig } from './get-dashboard-config.use-case.js';
import { SaveDashboardConfig } from './save-dashboard-config.use-case.js';

describe('SaveDashboardConfig and GetDashboardConfig', () => {
  const setup = () => {
    const repo = new MemoryDashboardConfigRepository();
    const clock = new ManualClock('2026-03-04T05:06:07.890Z');
    return { repo, save: new SaveDashboardConfig(repo, clock), get: new GetDashboardConfig(repo) };
  };

  describe('when the caller is a user', () => {
    it('stores the normalized configuration with updatedBy and returns it', async () => {
      const { repo, save } = setup();
      const result = await save.execute(userCaller('acme', 'u1'), { templateId: 'ops', slots: [{ type: 'topArticles' }] });
      expect(result.slots).to.deep.equal([{ id: 'slot_1', type: 'topArticles', enabled: true, span: 'full', settings: { range: '2weeks' } }]);
      const stored = await repo.find('acme', 'u1');
      expect(stored?.updatedBy).to.equal('u1');
      expect(stored?.updatedAt.toISOString()).to.equal('2026-03-04T05:06:07.890Z');
      expect(stored?.config).to.deep.equal(result);
    });

    it('replaces the previous record and resets to the default on an empty body', async () => {
      const { save, get } = setup();
      await save.execute(userCaller('acme', 'u1'), { templateId: 'ops' });
      await save.execute(userCaller('acme', 'u1'), {});
      expect(await get.execute(userCaller('acme', 'u1'))).to.deep.equal(defaultDashboardConfig());
    });

    it('reads the default without storing anything', async () => {
      const { repo, get } = setup();
      expect(await get.execute(userCaller('acme', 'u1'))).to.deep.equal(defaultDashboardConfig());
      expect(await repo.find('acme', 'u1')).to.equal(null);
    });

    it('keeps tenants apart for the same user id', async () => {
      const { save, get } = setup();
      await save.execute(userCaller('acme', 'u1'), { templateId: 'acme-layout' });
      expect((await get.execute(userCaller('other', 'u1'))).templateId).to.equal('executive_focus');
    });
  });

  describe('when the caller has no user id', () => {
    it('answers MISSING_USER_ID before looking at the body', async () => {
      const { save } = setup();
      const error = await save.execute(anonymousCaller('acme'), 'not an object' as never).catch((e: unknown) => e);
      expect((error as { code: string }).code).to.equal(ErrorCodes.MISSING_USER_ID);
    });
  });

  describe('when the body is invalid', () => {
    it('changes nothing', async () => {
      const { repo, save } = setup();
      await save.execute(userCaller('acme', 'u1'), { templateId: 'kept' });
      const error = await save.execute(userCaller('acme', 'u1'), { version: 'x' } as never).catch((e: unknown) => e);
      expect((error as { code: string }).code).to.equal(ErrorCodes.VALIDATION_FAILED);
      expect((await repo.find('acme', 'u1'))?.config.templateId).to.equal('kept');
    });
  });
});
