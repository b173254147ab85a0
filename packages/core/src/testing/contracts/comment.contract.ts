import { expect } from 'chai';
import type { CommentRepository } from '../../comments/comments.ports.js';
import { commentRecord } from '../engagement-records.js';
import { tryToChange, useRepository, type RepositoryFactory } from './contract-fixture.js';
import { describeReactionTotals } from './reaction-totals.contract.js';

const ARTICLE = '0000000000000000000000a1';
const MALFORMED = ['not-an-id', '', '0123456789abcdef0123456', '0123456789abcdef012345678', 'zz23456789abcdef01234567'];

export function commentRepositoryContract(name: string, factory: RepositoryFactory<CommentRepository>): void {
  describe(`CommentRepository contract: ${name}`, () => {
    const repo = useRepository(factory);

    it('stores a comment and finds it by id in its tenant only', async () => {
      const comment = commentRecord('acme', ARTICLE, { authorName: 'Bo', userId: null, guestId: 'guest-123' });
      await repo().insert(comment);
      expect(await repo().findById('acme', comment.id)).to.deep.equal(comment);
      expect(await repo().findById('other', comment.id)).to.equal(null);
    });

    it('approves a pending comment and keeps the first approval when approved again', async () => {
      const comment = commentRecord('acme', ARTICLE);
      await repo().insert(comment);
      const first = new Date('2026-02-01T00:00:00.000Z');
      const approved = await repo().approve('acme', comment.id, 'ed-1', first);
      expect(approved?.changed).to.equal(true);
      expect(approved?.comment).to.include({ status: 'approved', approvedBy: 'ed-1' });
      expect(approved?.comment.approvedAt?.toISOString()).to.equal(first.toISOString());
      expect(approved?.comment.updatedAt.toISOString()).to.equal(first.toISOString());
      const again = await repo().approve('acme', comment.id, 'ed-2', new Date('2026-03-01T00:00:00.000Z'));
      expect(again?.changed).to.equal(false);
      expect(again?.comment.approvedBy).to.equal('ed-1');
      expect(again?.comment.approvedAt?.toISOString()).to.equal(first.toISOString());
      const sameInstant = await repo().approve('acme', comment.id, 'ed-1', first);
      expect(sameInstant, 'approved again by the same user in the same millisecond').to.deep.equal({ comment: again?.comment, changed: false });
      expect((await repo().findById('acme', comment.id))?.status).to.equal('approved');
    });

    it('approves a comment once among concurrent approvals, whoever and whenever', async () => {
      const comment = commentRecord('acme', ARTICLE);
      await repo().insert(comment);
      const at = new Date('2026-02-01T00:00:00.000Z');
      const approvals = await Promise.all(Array.from({ length: 6 }, (_, i) => repo().approve('acme', comment.id, `ed-${i % 2}`, at)));
      expect(approvals.filter((approval) => approval?.changed)).to.have.length(1);
    });

    it('approves nothing in another tenant or for an unknown id', async () => {
      const comment = commentRecord('acme', ARTICLE);
      await repo().insert(comment);
      expect(await repo().approve('other', comment.id, 'ed', new Date())).to.equal(null);
      expect(await repo().approve('acme', '0123456789abcdef01234567', 'ed', new Date())).to.equal(null);
      expect((await repo().findById('acme', comment.id))?.status).to.equal('pending');
    });

    it('finds and approves nothing for a malformed id, without throwing', async () => {
      await repo().insert(commentRecord('acme', ARTICLE));
      for (const id of MALFORMED) {
        expect(await repo().findById('acme', id), id).to.equal(null);
        expect(await repo().approve('acme', id, 'ed', new Date()), id).to.equal(null);
      }
    });

    it('returns records that never change the store when changed', async () => {
      const comment = commentRecord('acme', ARTICLE);
      await repo().insert(comment);
      const found = (await repo().findById('acme', comment.id)) as { content: string };
      tryToChange(() => (found.content = 'mutated'));
      expect((await repo().findById('acme', comment.id))?.content).to.equal('Nice');
    });

    describeReactionTotals(repo, async (tenantId) => {
      const comment = commentRecord(tenantId, ARTICLE);
      await repo().insert(comment);
      return comment.id;
    }, (tenantId, id) => repo().delete(tenantId, id));
  });
}
