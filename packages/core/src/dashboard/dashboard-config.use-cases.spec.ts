import { expect } from 'chai';
import sinon from 'sinon';
import { MemoryDashboardConfigRepository } from '../memory/memory-dashboard-config.repository.js';
import { ManualClock } from '../shared/clock.js';
import { entityTag } from '../shared/entity-tag.js';
import { isDeeplyFrozen } from '../shared/frozen-snapshots.js';
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
      const result = await save.execute(userCaller('acme', 'u1'), { config: { templateId: 'ops', slots: [{ type: 'topArticles' }] } });
      expect(result.slots).to.deep.equal([{ id: 'slot_1', type: 'topArticles', enabled: true, span: 'full', settings: { range: '2weeks' } }]);
      const stored = await repo.find('acme', 'u1');
      expect(stored?.updatedBy).to.equal('u1');
      expect(stored?.updatedAt.toISOString()).to.equal('2026-03-04T05:06:07.890Z');
      expect(stored?.config).to.deep.equal(result);
    });

    it('replaces the previous record and resets to the default on an empty body', async () => {
      const { save, get } = setup();
      await save.execute(userCaller('acme', 'u1'), { config: { templateId: 'ops' } });
      await save.execute(userCaller('acme', 'u1'), { config: {} });
      expect(await get.execute(userCaller('acme', 'u1'))).to.deep.equal(defaultDashboardConfig());
    });

    it('reads the default without storing anything', async () => {
      const { repo, get } = setup();
      expect(await get.execute(userCaller('acme', 'u1'))).to.deep.equal(defaultDashboardConfig());
      expect(await repo.find('acme', 'u1')).to.equal(null);
    });

    it('answers every user with nothing stored one shared, deeply frozen default, whose text and tag adapters can keep', async () => {
      const { get } = setup();
      const [first, second] = [await get.execute(userCaller('acme', 'u1')), await get.execute(userCaller('other', 'u2'))];
      expect(second).to.equal(first);
      expect(isDeeplyFrozen(first)).to.equal(true);
      expect(first).to.deep.equal(defaultDashboardConfig());
    });

    it('keeps tenants apart for the same user id', async () => {
      const { save, get } = setup();
      await save.execute(userCaller('acme', 'u1'), { config: { templateId: 'acme-layout' } });
      expect((await get.execute(userCaller('other', 'u1'))).templateId).to.equal('executive_focus');
    });
  });

  describe('when the caller has no user id', () => {
    it('answers MISSING_USER_ID before looking at the body', async () => {
      const { save } = setup();
      const error = await save.execute(anonymousCaller('acme'), { config: 'not an object' as never }).catch((e: unknown) => e);
      expect((error as { code: string }).code).to.equal(ErrorCodes.MISSING_USER_ID);
    });
  });

  describe('when the body is invalid', () => {
    it('changes nothing', async () => {
      const { repo, save } = setup();
      await save.execute(userCaller('acme', 'u1'), { config: { templateId: 'kept' } });
      const error = await save.execute(userCaller('acme', 'u1'), { config: { version: 'x' } as never }).catch((e: unknown) => e);
      expect((error as { code: string }).code).to.equal(ErrorCodes.VALIDATION_FAILED);
      expect((await repo.find('acme', 'u1'))?.config.templateId).to.equal('kept');
    });
  });

  describe('when If-Match names a tag', () => {
    const code = (error: unknown) => (error as { code?: string }).code;

    it('saves when it is the tag of the layout the caller sees: the default while nothing is stored, then the stored one', async () => {
      const { get, save } = setup();
      const user = userCaller('acme', 'u1');
      const first = await save.execute(user, { config: { templateId: 'one' }, ifMatch: entityTag(await get.execute(user)) });
      expect(first.templateId).to.equal('one');
      const second = await save.execute(user, { config: { templateId: 'two' }, ifMatch: `"other", ${entityTag(first)}` });
      expect((await get.execute(user)).templateId).to.equal(second.templateId).and.equal('two');
    });

    it('answers PRECONDITION_FAILED for any other tag before looking at the body, and changes nothing', async () => {
      const { get, save } = setup();
      const user = userCaller('acme', 'u1');
      const defaultTag = entityTag(await get.execute(user));
      const stored = await save.execute(user, { config: { templateId: 'kept' } });
      const checkShape = sinon.spy();
      for (const ifMatch of [defaultTag, `W/${entityTag(stored)}`, '"nope"', 'unquoted', '']) {
        const error = await save.execute(user, { config: 'not an object' as never, ifMatch, checkShape }).catch((e: unknown) => e);
        expect(code(error), ifMatch).to.equal(ErrorCodes.PRECONDITION_FAILED);
      }
      expect(checkShape.called).to.equal(false);
      expect((await get.execute(user)).templateId).to.equal('kept');
    });

    it('reads nothing for `*` or without If-Match: the layout always has a representation', async () => {
      const { repo, save } = setup();
      const find = sinon.spy(repo, 'find');
      await save.execute(userCaller('acme', 'u1'), { config: { templateId: 'any' }, ifMatch: '*' });
      await save.execute(userCaller('acme', 'u1'), { config: { templateId: 'blind' } });
      expect(find.called).to.equal(false);
      expect((await repo.find('acme', 'u1'))?.config.templateId).to.equal('blind');
    });

    it('answers PRECONDITION_FAILED when another save lands between the check and the write', async () => {
      const { repo, get, save } = setup();
      const user = userCaller('acme', 'u1');
      const tag = entityTag(await save.execute(user, { config: { templateId: 'read' } }));
      const replaceIf = repo.replaceIf.bind(repo);
      sinon.stub(repo, 'replaceIf').callsFake(async (record, expected) => {
        await repo.upsert({ ...record, config: { ...record.config, templateId: 'meanwhile' } });
        return replaceIf(record, expected);
      });
      const error = await save.execute(user, { config: { templateId: 'late' }, ifMatch: tag }).catch((e: unknown) => e);
      expect(code(error)).to.equal(ErrorCodes.PRECONDITION_FAILED);
      expect((await get.execute(user)).templateId).to.equal('meanwhile');
    });
  });
});
