import { expect } from 'chai';
import { MemoryArticleRepository } from '../memory/memory-article.repository.js';
import { MemoryCommentRepository } from '../memory/memory-comment.repository.js';
import { MemoryFormRepository } from '../memory/memory-form.repository.js';
import { MemoryReactionRepository } from '../memory/memory-reaction.repository.js';
import { MemorySubmissionRepository } from '../memory/memory-submission.repository.js';
import { articleRecord, commentRecord } from '../testing/engagement-records.js';
import { formRecord, submissionRecord } from '../testing/form-fixtures.js';
import { EventWitnessReader } from './event-witness-reader.js';

const T = 't1';
const MISSING = 'f'.repeat(24);

describe('EventWitnessReader', () => {
  async function stored() {
    const stores = {
      forms: new MemoryFormRepository(),
      submissions: new MemorySubmissionRepository(),
      articles: new MemoryArticleRepository(),
      comments: new MemoryCommentRepository(),
      reactions: new MemoryReactionRepository(),
    };
    const form = formRecord(T, 'witnessed');
    const submission = submissionRecord(T, form.id, { relations: { employer: 'a'.repeat(24), clients: ['b'.repeat(24)] } });
    const article = articleRecord(T);
    const pending = commentRecord(T, article.id, { status: 'pending' });
    const approved = commentRecord(T, article.id, { id: 'c'.repeat(24), status: 'approved' });
    await stores.forms.insert(form);
    await stores.submissions.insert(submission);
    // The related submissions exist: an id held dangling confirms nothing (decision 0766).
    for (const id of ['a'.repeat(24), 'b'.repeat(24)]) await stores.submissions.insert(submissionRecord(T, form.id, { id }));
    await stores.articles.insert(article);
    await stores.comments.insert(pending);
    await stores.comments.insert(approved);
    await stores.reactions.setReaction({ tenantId: T, targetKind: 'article', targetId: article.id, actor: 'user:u1' }, 'like');
    await stores.articles.incrementTotals(T, article.id, { likes: 1, dislikes: 0 });
    return { reader: new EventWitnessReader(stores), form, submission, article, pending, approved };
  }

  it('confirms a created record that exists, with the record as the routes answer it, and not one that does not', async () => {
    const { reader, form, submission, article, pending } = await stored();
    expect(await reader.dataIfHappened(T, { kind: 'form', id: form.id })).to.deep.include({ id: form.id, slug: 'witnessed' });
    expect(await reader.dataIfHappened(T, { kind: 'submission', id: submission.id })).to.deep.include({ id: submission.id }).and.not.have.property('tenantId');
    expect(await reader.dataIfHappened(T, { kind: 'article', id: article.id })).to.deep.include({ id: article.id, likes: 1 });
    expect(await reader.dataIfHappened(T, { kind: 'comment', id: pending.id })).to.deep.include({ id: pending.id, status: 'pending' });
    for (const kind of ['form', 'submission', 'article', 'comment'] as const) expect(await reader.dataIfHappened(T, { kind, id: MISSING }), kind).to.equal(undefined);
    expect(await reader.dataIfHappened('other-tenant', { kind: 'form', id: form.id })).to.equal(undefined);
  });

  it('checks the state a change claims: a relation held or released, an approval, a reaction', async () => {
    const { reader, submission, article, pending, approved } = await stored();
    const relation = (fieldName: string, relatedId: string) => reader.dataIfHappened(T, { kind: 'relation', submissionId: submission.id, fieldName, relatedId });
    expect(await relation('employer', 'a'.repeat(24))).to.deep.include({ id: submission.id });
    expect(await relation('clients', 'b'.repeat(24))).to.deep.include({ id: submission.id });
    expect(await relation('clients', 'a'.repeat(24))).to.equal(undefined);
    expect(await relation('toString', 'a'.repeat(24))).to.equal(undefined);
    const released = (fieldName: string, relatedId: string) =>
      reader.dataIfHappened(T, { kind: 'relation', submissionId: submission.id, fieldName, relatedId, held: false });
    expect(await released('employer', 'a'.repeat(24)), 'still connected: no disconnect happened').to.equal(undefined);
    expect(await released('clients', 'b'.repeat(24))).to.equal(undefined);
    expect(await released('clients', 'a'.repeat(24))).to.deep.include({ id: submission.id });
    expect(await released('employer', 'b'.repeat(24))).to.deep.include({ id: submission.id });
    expect(await reader.dataIfHappened(T, { kind: 'relation', submissionId: MISSING, fieldName: 'employer', relatedId: 'a'.repeat(24), held: false })).to.equal(undefined);
    expect(await reader.dataIfHappened(T, { kind: 'comment-approved', id: approved.id })).to.deep.include({ status: 'approved' });
    expect(await reader.dataIfHappened(T, { kind: 'comment-approved', id: pending.id })).to.equal(undefined);
    const reaction = (type: 'like' | 'dislike' | null, actor = 'user:u1') => reader.dataIfHappened(T, { kind: 'reaction', articleId: article.id, actor, type });
    expect(await reaction('like')).to.deep.equal({ articleId: article.id, likes: 1, dislikes: 0 });
    expect(await reaction('dislike')).to.equal(undefined);
    expect(await reaction(null, 'user:u2')).to.deep.equal({ articleId: article.id, likes: 1, dislikes: 0 });
  });

  it('confirms an update only at the updatedAt it wrote, and a deletion only once the record is gone', async () => {
    const { reader, form } = await stored();
    expect(await reader.dataIfHappened(T, { kind: 'updated', record: 'form', id: form.id, updatedAt: form.updatedAt })).to.deep.include({ id: form.id });
    expect(await reader.dataIfHappened(T, { kind: 'updated', record: 'form', id: form.id, updatedAt: new Date(form.updatedAt.getTime() + 1) })).to.equal(undefined);
    expect(await reader.dataIfHappened(T, { kind: 'deleted', record: 'form', id: form.id, data: { id: form.id } })).to.equal(undefined);
    expect(await reader.dataIfHappened(T, { kind: 'deleted', record: 'comment', id: MISSING, data: { id: MISSING, articleId: 'a'.repeat(24) } })).to.deep.equal({ id: MISSING, articleId: 'a'.repeat(24) });
  });
});
