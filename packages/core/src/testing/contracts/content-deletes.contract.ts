/**
 * The delete and cascade methods of the content repositories (§6.4, §6.5): each delete is one
 * atomic step reported to one caller, cascades are idempotent (a retry finishes the job) and
 * stay inside their tenant and group.
 */
import { expect } from 'chai';
import { newId } from '../../shared/ids.js';
import { articleRecord, authorRecord, categoryRecord, commentRecord } from '../engagement-records.js';
import { formRecord, submissionRecord } from '../form-fixtures.js';
import { useRepository, type RepositoryFactory } from './contract-fixture.js';
import type { ContentRepositories } from './keyset-lists.contract.js';

const NOW = new Date('2026-02-01T00:00:00.000Z');

export function contentDeleteContract(name: string, factory: RepositoryFactory<ContentRepositories>): void {
  describe(`Content deletes contract: ${name}`, () => {
    const repos = useRepository(factory);

    it('deletes forms, submissions, categories, articles and comments once each, only in their tenant', async () => {
      const form = formRecord('acme', 'gone');
      const submission = submissionRecord('acme', form.id);
      const category = categoryRecord('acme');
      const article = articleRecord('acme');
      const comment = commentRecord('acme', article.id);
      await repos().forms.insert(form);
      await repos().submissions.insert(submission);
      await repos().categories.insert(category);
      await repos().articles.insert(article);
      await repos().comments.insert(comment);
      const deletes = [
        (tenant: string) => repos().forms.delete(tenant, form.id),
        (tenant: string) => repos().submissions.delete(tenant, submission.id),
        (tenant: string) => repos().categories.delete(tenant, category.id),
        (tenant: string) => repos().articles.delete(tenant, article.id),
        (tenant: string) => repos().comments.delete(tenant, comment.id),
      ];
      for (const remove of deletes) {
        expect(await remove('other')).to.equal(false);
        const race = await Promise.all([remove('acme'), remove('acme'), remove('acme')]);
        expect(race.filter(Boolean)).to.have.length(1);
      }
      expect(await repos().forms.findBySlug('acme', 'gone')).to.equal(null);
      expect(await repos().forms.insert(formRecord('acme', 'gone'))).to.equal(true);
      expect(await repos().submissions.findById('acme', submission.id)).to.equal(null);
      expect(await repos().articles.list('acme', {}, { after: null, limit: 5 })).to.deep.equal([]);
      expect(await repos().comments.listByArticle('acme', article.id, undefined, { after: null, limit: 5 })).to.deep.equal([]);
    });

    it('deletes a submission, a comment or an author with an expected updatedAt only while it is still that (compare-and-delete)', async () => {
      const submission = submissionRecord('acme', newId());
      const comment = commentRecord('acme', newId());
      const author = authorRecord('acme');
      await repos().submissions.insert(submission);
      await repos().comments.insert(comment);
      await repos().authors.insert(author);
      const deletes = [
        { remove: (expected: Date) => repos().authors.delete('acme', author.id, expected), read: () => repos().authors.findById('acme', author.id), at: author.updatedAt },
        { remove: (expected: Date) => repos().submissions.delete('acme', submission.id, expected), read: () => repos().submissions.findById('acme', submission.id), at: submission.updatedAt },
        { remove: (expected: Date) => repos().comments.delete('acme', comment.id, expected), read: () => repos().comments.findById('acme', comment.id), at: comment.updatedAt },
      ];
      for (const { remove, read, at } of deletes) {
        expect(await remove(new Date(at.getTime() - 1))).to.equal(false);
        expect(await read()).to.not.equal(null);
        const race = await Promise.all([remove(at), remove(at)]);
        expect(race.filter(Boolean)).to.have.length(1);
        expect(await read()).to.equal(null);
      }
    });

    it('deletes a form’s submissions and an article’s comments, and nothing else', async () => {
      const formId = newId();
      const kept = submissionRecord('acme', newId());
      for (let i = 0; i < 3; i += 1) await repos().submissions.insert(submissionRecord('acme', formId));
      await repos().submissions.insert(submissionRecord('other', formId));
      await repos().submissions.insert(kept);
      expect(await repos().submissions.deleteByForm('acme', formId)).to.equal(3);
      expect(await repos().submissions.deleteByForm('acme', formId)).to.equal(0);
      expect(await repos().submissions.listByForm('other', formId, { after: null, limit: 5 })).to.have.length(1);
      expect(await repos().submissions.findById('acme', kept.id)).to.not.equal(null);

      const articleId = newId();
      for (let i = 0; i < 2; i += 1) await repos().comments.insert(commentRecord('acme', articleId));
      const other = commentRecord('acme', newId());
      await repos().comments.insert(other);
      expect(await repos().comments.deleteByArticle('acme', articleId)).to.equal(2);
      expect(await repos().comments.findById('acme', other.id)).to.not.equal(null);
    });

    it('deletes submissions by id: the tenant’s own, from lists too; unknown and malformed ids skipped', async () => {
      const formId = newId();
      const [first, second, kept] = [submissionRecord('acme', formId), submissionRecord('acme', formId), submissionRecord('acme', formId)];
      const foreign = submissionRecord('other', formId);
      for (const submission of [first, second, kept, foreign]) await repos().submissions.insert(submission);
      expect(await repos().submissions.deleteByIds('acme', [first.id, second.id, foreign.id, newId(), 'not-an-id'])).to.equal(2);
      expect(await repos().submissions.deleteByIds('acme', [first.id])).to.equal(0);
      expect(await repos().submissions.deleteByIds('acme', [])).to.equal(0);
      expect((await repos().submissions.listByForm('acme', formId, { after: null, limit: 5 })).map((s) => s.id)).to.deep.equal([kept.id]);
      expect(await repos().submissions.findById('acme', first.id)).to.equal(null);
      expect(await repos().submissions.findById('other', foreign.id)).to.not.equal(null);
    });

    it('takes ids out of a holder field’s lists and single values, for every submission of the holder form', async () => {
      const holder = { formId: newId(), fieldName: 'links' };
      const [gone, alsoGone, kept] = [newId(), newId(), newId()];
      const list = submissionRecord('acme', holder.formId, { relations: { links: [gone, kept, alsoGone], other: [gone] } });
      const single = submissionRecord('acme', holder.formId, { relations: { links: gone } });
      const untouched = submissionRecord('acme', holder.formId, { relations: { links: kept } });
      const foreign = submissionRecord('other', holder.formId, { relations: { links: gone } });
      for (const submission of [list, single, untouched, foreign]) await repos().submissions.insert(submission);
      expect(await repos().submissions.removeRelationsTo('acme', holder, [gone, alsoGone])).to.equal(2);
      expect((await repos().submissions.findById('acme', list.id))?.relations).to.deep.equal({ links: [kept], other: [gone] });
      expect((await repos().submissions.findById('acme', single.id))?.relations).to.deep.equal({});
      expect((await repos().submissions.findById('acme', untouched.id))?.relations).to.deep.equal({ links: kept });
      expect((await repos().submissions.findById('other', foreign.id))?.relations).to.deep.equal({ links: gone });
      expect(await repos().submissions.removeRelationsTo('acme', holder, [gone])).to.equal(0);
    });

    // Decision 0838: the embedded store finds holders by the ids they hold, kept by every write
    // that changes relations; each step below fails if one of those writes forgets its upkeep.
    it('finds the holders an id has after connects, a replaced single value, disconnects, a withdraw and deletes', async () => {
      const submissions = repos().submissions;
      const holder = { formId: newId(), fieldName: 'links' };
      const [a, b, c, d] = [newId(), newId(), newId(), newId()];
      const first = submissionRecord('acme', holder.formId);
      const second = submissionRecord('acme', holder.formId);
      const elsewhere = submissionRecord('acme', newId(), { relations: { links: [a] } });
      for (const submission of [first, second, elsewhere]) await submissions.insert(submission);
      const connect = (submissionId: string, fieldName: string, relatedId: string, multiple = true) =>
        submissions.connectRelation({ tenantId: 'acme', submissionId, fieldName, relatedId, multiple, cap: 10, now: NOW });
      for (const id of [a, b]) await connect(first.id, 'links', id);
      await connect(first.id, 'pick', a, false);
      await connect(second.id, 'links', c, false);
      await connect(second.id, 'links', d, false); // replaces c
      // `a` in two fields of `first`: taken out of `links`, `first` still holds it in `pick`.
      expect(await submissions.removeRelationsTo('acme', holder, [a])).to.equal(1);
      expect(await submissions.removeRelationsTo('acme', { ...holder, fieldName: 'pick' }, [a])).to.equal(1);
      expect((await submissions.findById('acme', first.id))?.relations).to.deep.equal({ links: [b] });
      expect((await submissions.findById('acme', elsewhere.id))?.relations, 'another form’s field of the same name').to.deep.equal({ links: [a] });
      expect(await submissions.removeRelationsTo('acme', holder, [c]), 'the replaced value').to.equal(0);
      expect(await submissions.removeRelationsTo('acme', holder, [d])).to.equal(1);
      // Disconnected, then connected again: held again.
      await submissions.disconnectRelation({ tenantId: 'acme', submissionId: first.id, fieldName: 'links', relatedId: b, now: NOW });
      expect(await submissions.removeRelationsTo('acme', holder, [b])).to.equal(0);
      await connect(first.id, 'links', b);
      // A connect withdrawn (its related submission vanished) restores what the value replaced.
      await connect(second.id, 'links', c, false);
      await connect(second.id, 'links', d, false);
      await submissions.withdrawRelation({ tenantId: 'acme', submissionId: second.id, fieldName: 'links', relatedId: d, restore: c });
      expect(await submissions.removeRelationsTo('acme', holder, [d]), 'withdrawn').to.equal(0);
      expect(await submissions.removeRelationsTo('acme', holder, [b, c])).to.equal(2);
      // A holder deleted, alone or with its form, holds nothing; one inserted with relations does.
      await connect(first.id, 'links', b);
      await submissions.delete('acme', first.id);
      expect(await submissions.removeRelationsTo('acme', holder, [b])).to.equal(0);
      const inserted = submissionRecord('acme', holder.formId, { relations: { links: b } });
      await submissions.insert(inserted);
      expect(await submissions.deleteByForm('acme', holder.formId)).to.equal(2);
      await submissions.insert(submissionRecord('acme', holder.formId));
      expect(await submissions.removeRelationsTo('acme', holder, [b])).to.equal(0);
      expect(await submissions.removeRelationsTo('acme', { formId: elsewhere.formId, fieldName: 'links' }, [a])).to.equal(1);
    });

    it('disconnects one id from a list or a single value, and changes nothing when it is not there', async () => {
      const [a, b] = [newId(), newId()];
      const submission = submissionRecord('acme', newId(), { relations: { many: [a, b], one: a } });
      await repos().submissions.insert(submission);
      const command = { tenantId: 'acme', submissionId: submission.id, relatedId: a, now: NOW };
      const fromList = await repos().submissions.disconnectRelation({ ...command, fieldName: 'many' });
      expect(fromList?.changed).to.equal(true);
      expect(fromList?.submission.relations).to.deep.equal({ many: [b], one: a });
      expect(submission.updatedAt.toISOString()).to.not.equal(NOW.toISOString());
      expect(fromList?.submission.updatedAt.toISOString(), 'a list disconnect moves the version too').to.equal(NOW.toISOString());
      const after = (await repos().submissions.disconnectRelation({ ...command, fieldName: 'one' }))?.submission;
      expect(after?.relations).to.deep.equal({ many: [b] });
      expect(after?.updatedAt.toISOString()).to.equal(NOW.toISOString());
      const again = await repos().submissions.disconnectRelation({ ...command, fieldName: 'one', now: after!.updatedAt });
      expect(again, 'not connected any more, at the same instant: no change').to.deep.include({ changed: false });
      expect(again?.submission.relations).to.deep.equal({ many: [b] });
      expect(await repos().submissions.disconnectRelation({ ...command, tenantId: 'other', fieldName: 'many' })).to.equal(null);
    });

    it('clears a category from the articles that name it as category or sub-category, and their sub-category with it', async () => {
      const [top, sub] = [newId(), newId()];
      const inTop = articleRecord('acme', { categoryId: top });
      const inTopAndItsSub = articleRecord('acme', { categoryId: top, subCategoryId: newId() });
      const inSub = articleRecord('acme', { categoryId: newId(), subCategoryId: sub });
      const foreign = articleRecord('other', { categoryId: top });
      for (const article of [inTop, inTopAndItsSub, inSub, foreign]) await repos().articles.insert(article);
      expect(await repos().articles.clearCategory('acme', top)).to.equal(2);
      expect(await repos().articles.clearCategory('acme', sub)).to.equal(1);
      expect(await repos().articles.findById('acme', inTop.id)).to.deep.include({ categoryId: null, subCategoryId: null });
      expect(await repos().articles.findById('acme', inTopAndItsSub.id)).to.deep.include({ categoryId: null, subCategoryId: null });
      expect((await repos().articles.findById('acme', inSub.id))?.subCategoryId).to.equal(null);
      expect((await repos().articles.findById('other', foreign.id))?.categoryId).to.equal(top);
      expect(await repos().articles.clearCategory('acme', top)).to.equal(0);
    });

    it('deletes the reactions of targets, and drops the notification jobs of a form or one submission', async () => {
      const [target, other] = [newId(), newId()];
      for (const actor of ['user:a', 'user:b']) await repos().reactions.setReaction({ tenantId: 'acme', targetKind: 'article', targetId: target, actor }, 'like', NOW);
      await repos().reactions.setReaction({ tenantId: 'acme', targetKind: 'article', targetId: other, actor: 'user:a' }, 'like', NOW);
      expect(await repos().reactions.deleteByTargets('acme', 'article', [target])).to.equal(2);
      expect(await repos().reactions.findReaction({ tenantId: 'acme', targetKind: 'article', targetId: other, actor: 'user:a' })).to.equal('like');

      const formId = newId();
      const [first, second] = [newId(), newId()];
      const job = (submissionId: string, tenantId = 'acme') => ({
        tenantId,
        channel: 'push' as const,
        audience: 'admin' as const,
        recipients: [],
        message: { formId, formSlug: 's', formTitle: { en: 'S' }, submissionId, values: {}, submittedBy: null, submittedAt: NOW },
      });
      await repos().notificationOutbox.enqueue([job(first), job(first), job(second), job(first, 'other')], NOW);
      expect(await repos().notificationOutbox.dropJobs('acme', formId, first)).to.equal(2);
      expect(await repos().notificationOutbox.dropJobs('acme', formId)).to.equal(1);
      expect(await repos().notificationOutbox.listByTenant('other')).to.have.length(1);
    });

    it('drops a job whatever its status (its message carries the values), and records no outcome for a job dropped while it was claimed', async () => {
      const outbox = repos().notificationOutbox;
      const formId = newId();
      const job = (submissionId: string) => ({
        tenantId: 'acme',
        channel: 'push' as const,
        audience: 'admin' as const,
        recipients: [],
        message: { formId, formSlug: 's', formTitle: { en: 'S' }, submissionId, values: { email: 'ada@example.com' }, submittedBy: null, submittedAt: NOW },
      });
      const [sent, failed, held] = [newId(), newId(), newId()];
      await outbox.enqueue([job(sent), job(failed), job(held)], NOW);
      const claimed = await outbox.claimDue(NOW, 60_000, 10);
      const idOf = (submissionId: string) => claimed.find((claim) => claim.message.submissionId === submissionId)!.id;
      await outbox.complete(idOf(sent), { status: 'sent' }, NOW);
      await outbox.complete(idOf(failed), { status: 'failed', error: 'refused' }, NOW);
      expect(await outbox.dropJobs('acme', formId, sent)).to.equal(1);
      expect(await outbox.dropJobs('acme', formId, failed)).to.equal(1);
      // Dropped while a dispatcher holds it: the send's outcome, recorded after, brings nothing back.
      expect(await outbox.dropJobs('acme', formId, held)).to.equal(1);
      await outbox.complete(idOf(held), { status: 'sent' }, NOW);
      expect(await outbox.listByTenant('acme')).to.deep.equal([]);
    });
  });
}
