import { expect } from 'chai';
import type { ConnectRelationCommand, SubmissionRepository } from '../../forms/forms.ports.js';
import type { Submission } from '../../forms/submission.js';
import { newId } from '../../shared/ids.js';
import { submissionRecord } from '../form-fixtures.js';
import { tryToChange, useRepository, type RepositoryFactory } from './contract-fixture.js';

/** A submission as stored once its notification recovery time was taken off. */
const without = ({ notificationsRecoverAt: _, ...rest }: Submission): Submission => rest;

/** The behaviour every SubmissionRepository must show: lookups, isolation, atomic relation connects, notification recovery claims, copies. */
export function submissionRepositoryContract(name: string, factory: RepositoryFactory<SubmissionRepository>): void {
  describe(`SubmissionRepository contract: ${name}`, () => {
    const repo = useRepository(factory);
    const formId = newId();
    const at = (iso: string) => new Date(iso);
    const connect = (submissionId: string, relatedId: string, overrides: Partial<ConnectRelationCommand> = {}) =>
      repo().connectRelation({
        tenantId: 'acme',
        submissionId,
        fieldName: 'links',
        relatedId,
        multiple: true,
        cap: 500,
        now: at('2026-02-01T00:00:00.000Z'),
        ...overrides,
      });
    const stored = async () => {
      const submission = submissionRecord('acme', formId, { values: { name: 'Ada', age: 36, ok: true } });
      await repo().insert(submission);
      return submission;
    };

    it('stores a submission and finds it by id, whole', async () => {
      const submission = await stored();
      expect(await repo().findById('acme', submission.id)).to.deep.equal(submission);
    });

    it('answers null for an unknown id and for another tenant’s submission', async () => {
      const submission = await stored();
      expect(await repo().findById('acme', newId())).to.equal(null);
      expect(await repo().findById('other', submission.id)).to.equal(null);
    });

    it('finds several by id in one call, leaving out unknown ids and other tenants’ submissions', async () => {
      const first = await stored();
      const second = await stored();
      const found = await repo().findByIds('acme', [second.id, newId(), first.id, second.id]);
      expect(found.sort((a, b) => a.id.localeCompare(b.id))).to.deep.equal([first, second].sort((a, b) => a.id.localeCompare(b.id)));
      expect(await repo().findByIds('other', [first.id])).to.deep.equal([]);
      expect(await repo().findByIds('acme', [])).to.deep.equal([]);
    });

    describe('when connecting a single-value relation', () => {
      it('sets the id, then replaces it, leaving other keys alone', async () => {
        const submission = await stored();
        await connect(submission.id, 'a'.repeat(24), { fieldName: 'links' });
        const first = await connect(submission.id, 'b'.repeat(24), { fieldName: 'owner', multiple: false });
        expect(first.status).to.equal('connected');
        const second = await connect(submission.id, 'c'.repeat(24), { fieldName: 'owner', multiple: false, now: at('2026-03-01T00:00:00.000Z') });
        expect(second.status).to.equal('connected');
        const found = await repo().findById('acme', submission.id);
        expect(found?.relations).to.deep.equal({ links: ['a'.repeat(24)], owner: 'c'.repeat(24) });
        expect(found?.updatedAt.toISOString()).to.equal('2026-03-01T00:00:00.000Z');
        expect(found?.createdAt.toISOString()).to.equal(submission.createdAt.toISOString());
        expect(found?.values).to.deep.equal(submission.values);
      });

      it('connects a field named like a member of Object.prototype as any other, replacing nothing', async () => {
        const submission = await stored();
        const [a, b] = ['a'.repeat(24), 'b'.repeat(24)];
        const first = await connect(submission.id, a, { fieldName: 'constructor', multiple: false });
        expect(first).to.deep.include({ status: 'connected', relatedExists: false });
        expect(first).not.to.have.property('replaced');
        const second = await connect(submission.id, b, { fieldName: 'constructor', multiple: false });
        expect(second).to.deep.include({ status: 'connected', replaced: a });
        expect((await connect(submission.id, b, { fieldName: 'constructor', multiple: false })).status).to.equal('unchanged');
        expect((await repo().findById('acme', submission.id))?.relations).to.deep.equal({ constructor: b });
      });

      it('changes nothing when it holds that id already: no write, updatedAt kept', async () => {
        const submission = await stored();
        const id = 'b'.repeat(24);
        await connect(submission.id, id, { fieldName: 'owner', multiple: false });
        const held = await repo().findById('acme', submission.id);
        const again = await connect(submission.id, id, { fieldName: 'owner', multiple: false, now: at('2026-09-09T00:00:00.000Z') });
        expect(again).to.deep.include({ status: 'unchanged', submission: held, relatedExists: false });
        expect(await repo().findById('acme', submission.id)).to.deep.equal(held);
      });

      it('replaces a list with that id in it by the id alone (the form made the field single-value)', async () => {
        const [a, b] = ['a'.repeat(24), 'b'.repeat(24)];
        const submission = submissionRecord('acme', formId, { relations: { owner: [a, b] } });
        await repo().insert(submission);
        const result = await connect(submission.id, a, { fieldName: 'owner', multiple: false });
        expect(result).to.deep.include({ status: 'connected', replaced: [a, b] });
        expect((await repo().findById('acme', submission.id))?.relations).to.deep.equal({ owner: a });
      });

      it('connects one of twelve concurrent connects of one id; the others change nothing', async () => {
        const submission = await stored();
        const id = 'c'.repeat(24);
        const results = await Promise.all(Array.from({ length: 12 }, () => connect(submission.id, id, { fieldName: 'owner', multiple: false })));
        expect(results.map((r) => r.status).sort()).to.deep.equal(['connected', ...Array(11).fill('unchanged')]);
        expect((await repo().findById('acme', submission.id))?.relations).to.deep.equal({ owner: id });
      });
    });

    describe('when connecting a multi-value relation', () => {
      it('appends ids in order and returns the changed submission', async () => {
        const submission = await stored();
        await connect(submission.id, 'a'.repeat(24));
        const result = await connect(submission.id, 'b'.repeat(24));
        expect(result.status).to.equal('connected');
        if (result.status !== 'connected') return;
        expect(result.submission.relations).to.deep.equal({ links: ['a'.repeat(24), 'b'.repeat(24)] });
        expect(result.submission.updatedAt.toISOString()).to.equal('2026-02-01T00:00:00.000Z');
      });

      it('appends to a field named like a member of Object.prototype as to any other', async () => {
        const submission = await stored();
        const [a, b] = ['a'.repeat(24), 'b'.repeat(24)];
        expect((await connect(submission.id, a, { fieldName: 'toString' })).status).to.equal('connected');
        expect((await connect(submission.id, b, { fieldName: 'toString' })).status).to.equal('connected');
        expect((await connect(submission.id, b, { fieldName: 'toString' })).status).to.equal('unchanged');
        expect((await repo().findById('acme', submission.id))?.relations).to.deep.equal({ toString: [a, b] });
        const disconnected = await repo().disconnectRelation({ tenantId: 'acme', submissionId: submission.id, fieldName: 'toString', relatedId: a, now: at('2026-02-03T00:00:00.000Z') });
        expect(disconnected?.submission.relations).to.deep.equal({ toString: [b] });
      });

      it('keeps an id once, and a repeat changes nothing', async () => {
        const submission = await stored();
        await connect(submission.id, 'a'.repeat(24));
        const again = await connect(submission.id, 'a'.repeat(24), { now: at('2026-09-09T00:00:00.000Z') });
        expect(again.status).to.equal('unchanged');
        const found = await repo().findById('acme', submission.id);
        if (again.status === 'unchanged') expect(again.submission).to.deep.equal(found);
        expect(found?.relations).to.deep.equal({ links: ['a'.repeat(24)] });
        expect(found?.updatedAt.toISOString()).to.equal('2026-02-01T00:00:00.000Z');
      });

      it('refuses a new id once the list holds cap ids, but not one already in it', async () => {
        const submission = await stored();
        const ids = ['a', 'b', 'c'].map((c) => c.repeat(24));
        for (const id of ids) expect((await connect(submission.id, id, { cap: 3 })).status).to.equal('connected');
        expect((await connect(submission.id, 'd'.repeat(24), { cap: 3 })).status).to.equal('full');
        expect((await connect(submission.id, 'b'.repeat(24), { cap: 3 })).status).to.equal('unchanged');
        expect((await repo().findById('acme', submission.id))?.relations).to.deep.equal({ links: ids });
      });

      it('keeps all of twelve concurrent connects', async () => {
        const submission = await stored();
        const ids = Array.from({ length: 12 }, () => newId());
        const results = await Promise.all(ids.map((id) => connect(submission.id, id)));
        expect(results.map((r) => r.status)).to.deep.equal(Array(12).fill('connected'));
        const links = (await repo().findById('acme', submission.id))?.relations.links;
        expect(links).to.have.members(ids);
        expect(links).to.have.length(12);
      });

      it('connects one of twelve concurrent connects of one id; the others change nothing', async () => {
        const submission = await stored();
        const results = await Promise.all(Array.from({ length: 12 }, () => connect(submission.id, 'a'.repeat(24))));
        expect(results.map((r) => r.status).sort()).to.deep.equal(['connected', ...Array(11).fill('unchanged')]);
        expect((await repo().findById('acme', submission.id))?.relations).to.deep.equal({ links: ['a'.repeat(24)] });
      });

      it('never lets racing connects push a list past the cap', async () => {
        const submission = await stored();
        await connect(submission.id, 'a'.repeat(24), { cap: 3 });
        const ids = Array.from({ length: 6 }, () => newId());
        const results = await Promise.all(ids.map((id) => connect(submission.id, id, { cap: 3 })));
        expect(results.map((r) => r.status).sort()).to.deep.equal(['connected', 'connected', 'full', 'full', 'full', 'full']);
        const links = (await repo().findById('acme', submission.id))?.relations.links as string[];
        expect(links).to.have.length(3);
        expect(links.slice(1)).to.have.members(ids.filter((_, i) => results[i]!.status === 'connected'));
      });

      describe('onto a single id, stored before the form made the field multi-value', () => {
        const holding = async (id: string) => {
          const submission = submissionRecord('acme', formId, { relations: { links: id, owner: id } });
          await repo().insert(submission);
          return submission;
        };

        it('keeps the id first and appends the new one', async () => {
          const [a, b] = ['a'.repeat(24), 'b'.repeat(24)];
          const submission = await holding(a);
          const result = await connect(submission.id, b);
          expect(result.status).to.equal('connected');
          if (result.status === 'connected') expect(result.submission.relations).to.deep.equal({ links: [a, b], owner: a });
          const found = await repo().findById('acme', submission.id);
          expect(found?.relations).to.deep.equal({ links: [a, b], owner: a });
          expect(found?.updatedAt.toISOString()).to.equal('2026-02-01T00:00:00.000Z');
        });

        it('counts it: the same id changes nothing, and a cap of 1 is full', async () => {
          const a = 'a'.repeat(24);
          const submission = await holding(a);
          expect(await connect(submission.id, a)).to.deep.include({ status: 'unchanged', submission });
          expect(await connect(submission.id, 'b'.repeat(24), { cap: 1 })).to.deep.equal({ status: 'full' });
          expect(await repo().findById('acme', submission.id)).to.deep.equal(submission);
        });

        it('keeps all of twelve concurrent connects, and the id', async () => {
          const a = 'a'.repeat(24);
          const submission = await holding(a);
          const ids = Array.from({ length: 12 }, () => newId());
          const results = await Promise.all(ids.map((id) => connect(submission.id, id)));
          expect(results.map((r) => r.status)).to.deep.equal(Array(12).fill('connected'));
          const links = (await repo().findById('acme', submission.id))?.relations.links as string[];
          expect(links[0]).to.equal(a);
          expect(links.slice(1)).to.have.members(ids);
          expect(links).to.have.length(13);
        });
      });

      it('keeps concurrent connects to different fields of one submission', async () => {
        const submission = await stored();
        await Promise.all([
          connect(submission.id, 'a'.repeat(24), { fieldName: 'left' }),
          connect(submission.id, 'b'.repeat(24), { fieldName: 'right' }),
          connect(submission.id, 'c'.repeat(24), { fieldName: 'single', multiple: false }),
        ]);
        expect((await repo().findById('acme', submission.id))?.relations).to.deep.equal({
          left: ['a'.repeat(24)],
          right: ['b'.repeat(24)],
          single: 'c'.repeat(24),
        });
      });

      // A list's ids are taken out one by one; a step meant for a single value must never take the
      // key whole when a connect has just made the id one of a list's.
      it('keeps the ids a list held when a disconnect of an id races its connect', async () => {
        const [a, b, x] = ['a'.repeat(24), 'b'.repeat(24), 'c'.repeat(24)];
        const submission = await stored();
        for (const id of [a, b]) await connect(submission.id, id);
        const now = at('2026-02-02T00:00:00.000Z');
        await Promise.all([repo().disconnectRelation({ tenantId: 'acme', submissionId: submission.id, fieldName: 'links', relatedId: x, now }), connect(submission.id, x)]);
        const links = (await repo().findById('acme', submission.id))?.relations.links as string[];
        expect(links.slice(0, 2)).to.deep.equal([a, b]);
      });

      it('keeps the ids a list held when a removal of an id (an erasure) races its connect', async () => {
        const [a, b, x] = ['a'.repeat(24), 'b'.repeat(24), 'c'.repeat(24)];
        const submission = await stored();
        for (const id of [a, b]) await connect(submission.id, id);
        await Promise.all([repo().removeRelationsTo('acme', { formId, fieldName: 'links' }, [x]), connect(submission.id, x)]);
        const links = (await repo().findById('acme', submission.id))?.relations.links as string[];
        expect(links.slice(0, 2)).to.deep.equal([a, b]);
      });
    });

    describe('when reading back the related submission after the write (decision 0766)', () => {
      it('says whether the related submission exists, and which single value was replaced', async () => {
        const submission = await stored();
        const related = await stored();
        const gone = newId();
        const first = await connect(submission.id, related.id, { fieldName: 'owner', multiple: false });
        expect(first).to.deep.include({ status: 'connected', relatedExists: true });
        expect(first).to.not.have.property('replaced');
        const second = await connect(submission.id, gone, { fieldName: 'owner', multiple: false });
        expect(second).to.deep.include({ status: 'connected', relatedExists: false, replaced: related.id });
        expect(await connect(submission.id, related.id)).to.deep.include({ status: 'connected', relatedExists: true });
        expect(await connect(submission.id, related.id)).to.deep.include({ status: 'unchanged', relatedExists: true });
        expect(await connect(submission.id, gone)).to.deep.include({ status: 'connected', relatedExists: false });
        expect(await connect(submission.id, gone)).to.deep.include({ status: 'unchanged', relatedExists: false });
        expect(await connect(submission.id, related.id, { tenantId: 'other' })).to.deep.equal({ status: 'missing' });
      });

      it('withdraws an id: out of a list, a single value put back or removed, updatedAt kept, idempotent', async () => {
        const [a, b, c] = [newId(), newId(), newId()];
        const submission = submissionRecord('acme', formId, { relations: { many: [a, b], one: b, other: c } });
        await repo().insert(submission);
        const withdraw = (fieldName: string, relatedId: string, restore: string | null, tenantId = 'acme') =>
          repo().withdrawRelation({ tenantId, submissionId: submission.id, fieldName, relatedId, restore });
        await withdraw('many', b, null, 'other');
        await withdraw('one', b, a, 'other');
        expect((await repo().findById('acme', submission.id))?.relations).to.deep.equal(submission.relations);
        await withdraw('many', b, null);
        await withdraw('many', b, null);
        await withdraw('one', b, a);
        await withdraw('other', b, a);
        const found = await repo().findById('acme', submission.id);
        expect(found?.relations).to.deep.equal({ many: [a], one: a, other: c });
        expect(found?.updatedAt.toISOString()).to.equal(submission.updatedAt.toISOString());
        await withdraw('one', a, null);
        await withdraw('many', a, c);
        expect((await repo().findById('acme', submission.id))?.relations).to.deep.equal({ many: [], other: c });
        await withdraw('one', b, c);
        expect((await repo().findById('acme', submission.id))?.relations).to.deep.equal({ many: [], one: c, other: c });
        await repo().withdrawRelation({ tenantId: 'acme', submissionId: newId(), fieldName: 'one', relatedId: c, restore: null });
      });
    });

    describe('when a single-value connect replaces a list, stored before the form made the field single-value', () => {
      it('says which ids it replaced, and a withdrawal with them as restore puts the list back', async () => {
        const [a, b, c] = [newId(), newId(), newId()];
        const submission = submissionRecord('acme', formId, { relations: { owner: [a, b] } });
        await repo().insert(submission);
        const result = await connect(submission.id, c, { fieldName: 'owner', multiple: false });
        expect(result).to.deep.include({ status: 'connected', replaced: [a, b] });
        expect((await repo().findById('acme', submission.id))?.relations).to.deep.equal({ owner: c });
        await repo().withdrawRelation({ tenantId: 'acme', submissionId: submission.id, fieldName: 'owner', relatedId: c, restore: [a, b] });
        expect((await repo().findById('acme', submission.id))?.relations).to.deep.equal({ owner: [a, b] });
        await repo().withdrawRelation({ tenantId: 'acme', submissionId: submission.id, fieldName: 'owner', relatedId: a, restore: null });
        expect((await repo().findById('acme', submission.id))?.relations).to.deep.equal({ owner: [b] });
      });
    });

    it('claims a version: updatedAt moves from the one expected to the one claimed, nothing else, and only once', async () => {
      const submission = await stored();
      await connect(submission.id, 'a'.repeat(24));
      const before = (await repo().findById('acme', submission.id))!;
      const claimed = new Date(before.updatedAt.getTime() + 1);
      expect(await repo().claimVersion('other', submission.id, before.updatedAt, claimed)).to.equal(false);
      expect(await repo().claimVersion('acme', submission.id, new Date(before.updatedAt.getTime() - 1), claimed)).to.equal(false);
      expect(await repo().findById('acme', submission.id)).to.deep.equal(before);
      expect(await repo().claimVersion('acme', submission.id, before.updatedAt, claimed)).to.equal(true);
      expect(await repo().findById('acme', submission.id)).to.deep.equal({ ...before, updatedAt: claimed });
      expect(await repo().claimVersion('acme', submission.id, before.updatedAt, claimed)).to.equal(false);
      expect(await repo().claimVersion('acme', newId(), before.updatedAt, claimed)).to.equal(false);
      expect(await repo().claimVersion('acme', 'not-an-id', before.updatedAt, claimed)).to.equal(false);
    });

    it('answers missing for an unknown submission or another tenant’s, changing nothing', async () => {
      const submission = await stored();
      expect((await connect(newId(), 'a'.repeat(24))).status).to.equal('missing');
      expect((await connect(submission.id, 'a'.repeat(24), { tenantId: 'other' })).status).to.equal('missing');
      expect((await connect(submission.id, 'a'.repeat(24), { tenantId: 'other', multiple: false })).status).to.equal('missing');
      expect((await connect(newId(), 'a'.repeat(24), { multiple: false })).status).to.equal('missing');
      expect((await repo().findById('acme', submission.id))?.relations).to.deep.equal({});
    });

    it('treats a malformed submission id as matching nothing, without throwing', async () => {
      await stored();
      expect(await repo().findById('acme', 'not-an-id')).to.equal(null);
      expect((await connect('z'.repeat(24), 'a'.repeat(24))).status).to.equal('missing');
      expect((await connect('abc', 'a'.repeat(24), { multiple: false })).status).to.equal('missing');
    });

    describe('when submissions carry a notification recovery time', () => {
      const marked = async (tenantId: string, recoverAt: string) => {
        const submission = submissionRecord(tenantId, formId, { notificationsRecoverAt: at(recoverAt) });
        await repo().insert(submission);
        return submission;
      };
      const NOW = at('2026-02-01T12:00:00.000Z');

      it('stores the time with the submission and claims those whose time has come, of every tenant, earliest first, up to the limit', async () => {
        const later = await marked('acme', '2026-02-01T11:59:00.000Z');
        const earlier = await marked('other', '2026-02-01T11:00:00.000Z');
        await marked('acme', '2026-02-01T12:00:01.000Z'); // not yet
        await stored(); // no marker
        expect((await repo().findById('acme', later.id))?.notificationsRecoverAt?.toISOString()).to.equal('2026-02-01T11:59:00.000Z');
        const first = await repo().claimUnnotified(NOW, 60_000, 1);
        expect(first.map((submission) => submission.id)).to.deep.equal([earlier.id]);
        const rest = await repo().claimUnnotified(NOW, 60_000, 10);
        expect(rest.map((submission) => [submission.id, submission.tenantId])).to.deep.equal([[later.id, 'acme']]);
        expect(rest[0]!.notificationsRecoverAt?.toISOString()).to.equal('2026-02-01T12:01:00.000Z');
        expect(rest[0]!.values).to.deep.equal(later.values);
      });

      it('holds a claimed submission for the lease, then offers it again', async () => {
        const submission = await marked('acme', '2026-02-01T11:00:00.000Z');
        expect(await repo().claimUnnotified(NOW, 60_000, 10)).to.have.length(1);
        expect(await repo().claimUnnotified(at('2026-02-01T12:00:59.999Z'), 60_000, 10)).to.deep.equal([]);
        expect((await repo().claimUnnotified(at('2026-02-01T12:01:00.000Z'), 60_000, 10)).map((found) => found.id)).to.deep.equal([submission.id]);
      });

      it('never hands one submission to two concurrent claimers', async () => {
        for (let i = 0; i < 5; i++) await marked('acme', '2026-02-01T11:00:00.000Z');
        const claims = await Promise.all([1, 2, 3].map(() => repo().claimUnnotified(NOW, 60_000, 5)));
        const ids = claims.flat().map((submission) => submission.id);
        expect(ids).to.have.length(5);
        expect(new Set(ids).size).to.equal(5);
      });

      it('takes the time off when confirmed, keeping updatedAt, and says whether the submission is there', async () => {
        const submission = await marked('acme', '2026-02-01T11:00:00.000Z');
        expect(await repo().confirmNotified('other', submission.id)).to.equal(false);
        expect(await repo().confirmNotified('acme', submission.id)).to.equal(true);
        expect(await repo().confirmNotified('acme', submission.id)).to.equal(true);
        const found = await repo().findById('acme', submission.id);
        expect(found).to.deep.equal(without(submission));
        expect(await repo().claimUnnotified(NOW, 60_000, 10)).to.deep.equal([]);
        expect(await repo().confirmNotified('acme', newId())).to.equal(false);
        expect(await repo().confirmNotified('acme', 'not-an-id')).to.equal(false);
      });

      it('forgets the time of a deleted submission', async () => {
        const submission = await marked('acme', '2026-02-01T11:00:00.000Z');
        const ofForm = await marked('acme', '2026-02-01T11:00:00.000Z');
        await repo().delete('acme', submission.id);
        await repo().deleteByForm('acme', formId);
        expect(await repo().findById('acme', ofForm.id)).to.equal(null);
        expect(await repo().claimUnnotified(NOW, 60_000, 10)).to.deep.equal([]);
      });

      it('keeps the time through a relation connect', async () => {
        const submission = await marked('acme', '2026-02-01T11:00:00.000Z');
        await connect(submission.id, 'a'.repeat(24));
        expect((await repo().claimUnnotified(NOW, 60_000, 10)).map((found) => found.id)).to.deep.equal([submission.id]);
      });
    });

    it('returns records that never change the store when changed', async () => {
      const submission = await stored();
      const result = await connect(submission.id, 'a'.repeat(24));
      if (result.status === 'connected') tryToChange(() => (result.submission.relations.links as string[]).push('x'));
      const found = await repo().findById('acme', submission.id);
      tryToChange(() => (found!.values.name = 'changed'));
      const again = await repo().findById('acme', submission.id);
      expect(again?.relations).to.deep.equal({ links: ['a'.repeat(24)] });
      expect(again?.values.name).to.equal('Ada');
    });
  });
}
