/**
 * How the engagement repositories lay out documents (inspected on the collection double): ObjectId
 * `_id` and ObjectId references, string tenant ids, only the domain's fields, totals on the target,
 * one reaction record per key and guest windows that carry their expiry.
 */
import { expect } from 'chai';
import { articleRecord, authorRecord, categoryRecord, commentRecord } from '@cms/core/testing';
import { ObjectId } from 'mongodb';
import { Collections } from './storage/mongo-collections.js';
import { useDocumentLayout } from './testing/document-layout.js';

describe('Mongo document layout of engagement records', () => {
  const { db, repos, stored } = useDocumentLayout();
  const hex = (value: unknown) => (value as ObjectId).toHexString();

  describe('when authors, categories, articles and comments are stored', () => {
    it('keeps ids and references as ObjectIds and only the domain fields', async () => {
      const author = authorRecord('acme');
      const parent = categoryRecord('acme');
      const child = categoryRecord('acme', { parentId: parent.id });
      const article = articleRecord('acme', { authorId: author.id, categoryId: parent.id, subCategoryId: child.id });
      const comment = commentRecord('acme', article.id, { userId: null, guestId: 'guest-0001' });
      await repos().authors.insert(author);
      await repos().categories.insert(parent);
      await repos().categories.insert(child);
      await repos().articles.insert(article);
      await repos().comments.insert(comment);

      const [authorDoc] = stored(Collections.authors);
      expect(authorDoc?._id).to.be.instanceOf(ObjectId);
      expect(Object.keys(authorDoc!).sort()).to.deep.equal(['_id', 'avatarUrl', 'bio', 'createdAt', 'email', 'name', 'tenantId', 'updatedAt']);
      const childDoc = stored(Collections.categories).find((c) => c.parentId !== null);
      expect(childDoc?.parentId).to.be.instanceOf(ObjectId);
      expect(hex(childDoc?.parentId)).to.equal(parent.id);
      const [articleDoc] = stored(Collections.articles);
      for (const field of ['_id', 'authorId', 'categoryId', 'subCategoryId']) expect(articleDoc?.[field], field).to.be.instanceOf(ObjectId);
      expect(hex(articleDoc?.authorId)).to.equal(author.id);
      expect(Object.keys(articleDoc!).sort()).to.deep.equal(
        ['_id', 'authorId', 'categoryId', 'content', 'createdAt', 'dislikes', 'likes', 'reactionsEnabled', 'subCategoryId', 'tenantId', 'title', 'updatedAt'],
      );
      const [commentDoc] = stored(Collections.comments);
      expect(commentDoc?.articleId).to.be.instanceOf(ObjectId);
      expect(commentDoc).to.include({ tenantId: 'acme', guestId: 'guest-0001', userId: null, likes: 0, dislikes: 0 });
    });

    it('detaches a deleted author from its articles in place: the articles stay, with authorId null', async () => {
      const author = authorRecord('acme');
      await repos().authors.insert(author);
      for (let i = 0; i < 3; i += 1) await repos().articles.insert(articleRecord('acme', { authorId: author.id }));
      expect(await repos().authors.delete('acme', author.id)).to.equal(true);
      expect(await repos().articles.clearAuthor('acme', author.id)).to.equal(3);
      expect(stored(Collections.authors)).to.deep.equal([]);
      expect(stored(Collections.articles).map((a) => a.authorId)).to.deep.equal([null, null, null]);
    });
  });

  describe('when reactions change', () => {
    it('keeps one record per key with an ObjectId target, and the totals on the target document', async () => {
      const article = articleRecord('acme');
      await repos().articles.insert(article);
      const key = { tenantId: 'acme', targetKind: 'article' as const, targetId: article.id, actor: 'guest:g-1' };
      const at = new Date('2026-01-02T03:04:05.678Z');
      const later = new Date('2026-01-03T00:00:00.000Z');
      await repos().reactions.setReaction(key, 'like', at);
      await repos().reactions.setReaction(key, 'dislike', later);
      await repos().articles.incrementTotals('acme', article.id, { likes: 0, dislikes: 1 });
      const [reaction, ...more] = stored(Collections.reactions);
      expect(more).to.deep.equal([]);
      expect(reaction?.targetId).to.be.instanceOf(ObjectId);
      expect(hex(reaction?.targetId)).to.equal(article.id);
      expect(reaction).to.deep.include({ tenantId: 'acme', targetKind: 'article', actor: 'guest:g-1', type: 'dislike', createdAt: at, updatedAt: later });
      expect(Object.keys(reaction!).sort()).to.deep.equal(['_id', 'actor', 'createdAt', 'targetId', 'targetKind', 'tenantId', 'type', 'updatedAt']);
      expect(stored(Collections.articles)[0]).to.include({ likes: 0, dislikes: 1 });
      expect(await repos().reactions.removeReaction(key)).to.equal('dislike');
      expect(stored(Collections.reactions)).to.deep.equal([]);
    });
  });

  describe('when a guest writes', () => {
    it('counts in one document per window that expires at the window’s end, under a TTL index', async () => {
      const window = { tenantId: 'acme', guestId: 'guest-0001', startsAt: new Date('2026-01-01T00:00:00Z'), endsAt: new Date('2026-01-01T00:10:00Z') };
      await repos().guestRateLimiter.hit(window);
      await repos().guestRateLimiter.hit(window);
      const [counter, ...more] = stored(Collections.guestRateWindows);
      expect(more).to.deep.equal([]);
      expect(counter?._id).to.be.instanceOf(ObjectId);
      expect(counter).to.deep.include({ tenantId: 'acme', guestId: 'guest-0001', windowStart: window.startsAt, count: 2, expiresAt: window.endsAt });
      const ttl = db().collectionDouble(Collections.guestRateWindows).indexes().find((index) => index.expireAfterSeconds !== undefined);
      expect(ttl).to.deep.include({ keys: { expiresAt: 1 }, expireAfterSeconds: 0 });
    });
  });
});
