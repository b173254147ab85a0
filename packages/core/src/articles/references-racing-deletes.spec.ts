/**
 * A write that names another record racing that record's delete (§6.4): a comment and its
 * article, an article and its author or categories, a sub-category and its parent. Whichever way
 * they interleave, once both have finished nothing names a record that is gone (decision 0763):
 * a comment whose article went is taken back (404), an article is detached from an author or
 * category that went, and a sub-category whose parent went is top-level. The interleavings are
 * forced by holding one side's store call until the other side has finished or done its part.
 */
import { expect } from 'chai';
import { StaticCaptchaVerifier } from '../captcha/captcha.ports.js';
import { createCore } from '../embedded/create-core.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { userCaller } from '../testing/callers.js';
import { domainErrorOf } from '../testing/expect-domain-error.js';
import { whileHeld } from '../testing/held-calls.js';

const editor = userCaller('acme', 'ed-1', 'editor');
const reader = userCaller('acme', 'reader-1');

const setup = async () => {
  const core = createCore({ captcha: new StaticCaptchaVerifier() });
  const { articles, authors, categories, comments } = core.stores;
  const author = await core.authors.create.execute(editor, { name: 'Ada' });
  const top = await core.articles.createCategory.execute(editor, { name: 'News' });
  const sub = await core.articles.createCategory.execute(editor, { name: 'Local', parentId: top.id });
  const article = await core.articles.create.execute(editor, { title: 'Hello', authorId: author.id, categoryId: top.id, subCategoryId: sub.id });
  const commentsOf = async (articleId: string) => comments.listByArticle('acme', articleId, undefined, { after: null, limit: 100, order: 'oldestFirst' });
  const childrenOf = async (parentId: string) => categories.list('acme', { parentId }, { after: null, limit: 100 });
  return { core, stores: { articles, authors, categories, comments }, author, top, sub, article, commentsOf, childrenOf };
};

describe('A write naming a record racing that record’s delete', () => {
  describe('a comment and its article', () => {
    it('when the article is deleted between the comment’s check and its write: ARTICLE_NOT_FOUND, and no comment is left', async () => {
      const { core, stores, article, commentsOf } = await setup();
      const commenting = whileHeld(
        stores.comments,
        'insert',
        () => core.comments.create.execute(reader, { articleId: article.id, comment: { content: 'First!' } }),
        () => core.articles.remove.execute(editor, { id: article.id }),
      );
      expect((await domainErrorOf(commenting)).code).to.equal(ErrorCodes.ARTICLE_NOT_FOUND);
      expect(await commentsOf(article.id)).to.have.length(0);
    });

    it('when the comment lands while the article’s delete is removing the article: the comment is answered, and the delete leaves none', async () => {
      const { core, stores, article, commentsOf } = await setup();
      let answered: unknown;
      await whileHeld(
        stores.articles,
        'delete',
        () => core.articles.remove.execute(editor, { id: article.id }),
        async () => (answered = await core.comments.create.execute(reader, { articleId: article.id, comment: { content: 'Just in time' } })),
      );
      expect(answered).to.deep.include({ articleId: article.id, content: 'Just in time' });
      expect(await commentsOf(article.id)).to.have.length(0);
    });
  });

  describe('an article and its author or categories', () => {
    it('when the category is deleted between a create’s check and its write: the article is created without it', async () => {
      const { core, stores, sub, top } = await setup();
      const created = await whileHeld(
        stores.articles,
        'insert',
        () => core.articles.create.execute(editor, { title: 'Late', categoryId: top.id, subCategoryId: sub.id }),
        () => core.articles.removeCategory.execute(editor, { id: sub.id }),
      );
      expect(created).to.deep.include({ categoryId: top.id, subCategoryId: null });
      expect(await stores.articles.findById('acme', created.id)).to.deep.include({ categoryId: top.id, subCategoryId: null });
    });

    it('when the author is deleted between a create’s check and its write: the article is created without it', async () => {
      const { core, stores, author } = await setup();
      const created = await whileHeld(
        stores.articles,
        'insert',
        () => core.articles.create.execute(editor, { title: 'Late', authorId: author.id }),
        () => core.authors.remove.execute(editor, { id: author.id }),
      );
      expect(created.authorId).to.equal(null);
      expect((await stores.articles.findById('acme', created.id))?.authorId).to.equal(null);
    });

    it('when the author is deleted between an update’s read and its write: the update does not write the author back', async () => {
      const { core, stores, article, author } = await setup();
      const updated = await whileHeld(
        stores.articles,
        'update',
        () => core.articles.update.execute(editor, { id: article.id, changes: { title: 'Renamed' } }),
        () => core.authors.remove.execute(editor, { id: author.id }),
      );
      expect(updated).to.deep.include({ title: 'Renamed', authorId: null });
      expect(await stores.articles.findById('acme', article.id)).to.deep.include({ title: 'Renamed', authorId: null });
    });

    it('when the sub-category is deleted between an update’s read and its write: the update does not write it back', async () => {
      const { core, stores, article, sub, top } = await setup();
      const updated = await whileHeld(
        stores.articles,
        'update',
        () => core.articles.update.execute(editor, { id: article.id, changes: { title: 'Renamed' } }),
        () => core.articles.removeCategory.execute(editor, { id: sub.id }),
      );
      expect(updated).to.deep.include({ categoryId: top.id, subCategoryId: null });
      expect(await stores.articles.findById('acme', article.id)).to.deep.include({ categoryId: top.id, subCategoryId: null });
    });
  });

  describe('a sub-category and its parent', () => {
    it('when the parent is deleted between a create’s check and its write: the category is created top-level', async () => {
      const { core, stores } = await setup();
      const parent = await core.articles.createCategory.execute(editor, { name: 'Short-lived' });
      const created = await whileHeld(
        stores.categories,
        'insert',
        () => core.articles.createCategory.execute(editor, { name: 'Orphan', parentId: parent.id }),
        () => core.articles.removeCategory.execute(editor, { id: parent.id }),
      );
      expect(created.parentId).to.equal(null);
      expect((await stores.categories.findById('acme', created.id))?.parentId).to.equal(null);
    });

    it('when the sub-category lands while the parent’s delete is removing the parent: it is answered, and left top-level', async () => {
      const { core, stores, childrenOf } = await setup();
      const parent = await core.articles.createCategory.execute(editor, { name: 'Short-lived' });
      let answered: { id: string; parentId: string | null } | undefined;
      await whileHeld(
        stores.categories,
        'delete',
        () => core.articles.removeCategory.execute(editor, { id: parent.id }),
        async () => (answered = await core.articles.createCategory.execute(editor, { name: 'Just in time', parentId: parent.id })),
      );
      expect(answered?.parentId).to.equal(parent.id); // its parent was still there when it checked after its write
      expect(await childrenOf(parent.id)).to.have.length(0);
      expect((await stores.categories.findById('acme', answered!.id))?.parentId).to.equal(null);
    });

    it('when a sub-category and an article in it land while the parent’s delete is removing the parent: the article follows it', async () => {
      const { core, stores } = await setup();
      const parent = await core.articles.createCategory.execute(editor, { name: 'Short-lived' });
      let filed: { id: string } | undefined;
      let sub: { id: string } | undefined;
      await whileHeld(
        stores.categories,
        'delete',
        () => core.articles.removeCategory.execute(editor, { id: parent.id }),
        async () => {
          sub = await core.articles.createCategory.execute(editor, { name: 'Just in time', parentId: parent.id });
          filed = await core.articles.create.execute(editor, { title: 'Filed in it', categoryId: parent.id, subCategoryId: sub.id });
        },
      );
      expect((await stores.categories.findById('acme', sub!.id))?.parentId).to.equal(null);
      expect(await stores.articles.findById('acme', filed!.id)).to.deep.include({ categoryId: sub!.id, subCategoryId: null });
    });

    it('when the parent is deleted between a move’s read and its write: the category is left top-level', async () => {
      const { core, stores } = await setup();
      const parent = await core.articles.createCategory.execute(editor, { name: 'Short-lived' });
      const moving = await core.articles.createCategory.execute(editor, { name: 'Moving' });
      const moved = await whileHeld(
        stores.categories,
        'update',
        () => core.articles.updateCategory.execute(editor, { id: moving.id, changes: { parentId: parent.id } }),
        () => core.articles.removeCategory.execute(editor, { id: parent.id }),
      );
      expect(moved.parentId).to.equal(null);
      expect((await stores.categories.findById('acme', moving.id))?.parentId).to.equal(null);
    });
  });
});
