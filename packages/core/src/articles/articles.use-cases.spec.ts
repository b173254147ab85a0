import { expect } from 'chai';
import { ErrorCodes } from '../shared/error-codes.js';
import { anonymousCaller, userCaller } from '../testing/callers.js';
import { memoryEngagement, type MemoryEngagement } from '../testing/engagement-fixture.js';
import { domainErrorOf } from '../testing/expect-domain-error.js';

const editor = userCaller('acme', 'ed-1', 'editor');

describe('CreateCategory', () => {
  describe('when an admin or editor creates categories', () => {
    it('creates a top-level category with reactions enabled by default', async () => {
      const category = await memoryEngagement().createCategory.execute(editor, { name: ' News ' });
      expect(Object.keys(category)).to.have.members(['id', 'name', 'parentId', 'reactionsEnabled', 'createdAt', 'updatedAt']);
      expect(category).to.include({ name: 'News', parentId: null, reactionsEnabled: true });
    });

    it('creates a sub-category of a top-level category, given in any letter case', async () => {
      const world = memoryEngagement();
      const parent = await world.createCategory.execute(editor, { name: 'News' });
      const child = await world.createCategory.execute(editor, { name: 'Local', parentId: parent.id.toUpperCase(), reactionsEnabled: false });
      expect(child).to.include({ parentId: parent.id, reactionsEnabled: false });
    });
  });

  describe('when the input is not acceptable', () => {
    const refusals: Array<[string, (world: MemoryEngagement) => Promise<object>, string]> = [
      ['no name', async () => ({}), 'name is required'],
      ['a 101-character name', async () => ({ name: 'x'.repeat(101) }), 'name must be at most 100 characters'],
      ['a malformed parent', async () => ({ name: 'A', parentId: 'nope' }), 'parentId must be an id of 24 hexadecimal characters'],
      ['an unknown parent', async () => ({ name: 'A', parentId: '0123456789abcdef01234567' }), 'parentId must be an existing category'],
      [
        'a sub-category as parent (two levels)',
        async (world) => {
          const top = await world.createCategory.execute(editor, { name: 'Top' });
          const sub = await world.createCategory.execute(editor, { name: 'Sub', parentId: top.id });
          return { name: 'Deep', parentId: sub.id };
        },
        'parentId must be a top-level category (one level of nesting)',
      ],
      [
        'a parent of another tenant',
        async (world) => ({ name: 'A', parentId: (await world.createCategory.execute(userCaller('other', 'e', 'admin'), { name: 'X' })).id }),
        'parentId must be an existing category',
      ],
      ['a non-boolean reactionsEnabled', async () => ({ name: 'A', reactionsEnabled: 'no' }), 'reactionsEnabled must be a boolean'],
    ];
    for (const [name, input, message] of refusals) {
      it(`refuses ${name}`, async () => {
        const world = memoryEngagement();
        const error = await domainErrorOf(world.createCategory.execute(editor, await input(world)));
        expect(error.code).to.equal(ErrorCodes.VALIDATION_FAILED);
        expect(error.message).to.equal(message);
      });
    }

    it('refuses callers without a bearer token (401) or with role author (403)', async () => {
      const world = memoryEngagement();
      expect((await domainErrorOf(world.createCategory.execute(anonymousCaller('acme'), { name: 'A' }))).code).to.equal(ErrorCodes.UNAUTHORIZED);
      expect((await domainErrorOf(world.createCategory.execute(userCaller('acme', 'a', 'author'), { name: 'A' }))).code).to.equal(
        ErrorCodes.FORBIDDEN,
      );
    });
  });
});

describe('CreateArticle and GetArticle', () => {
  const setup = async () => {
    const world = memoryEngagement();
    const author = await world.createAuthor.execute(editor, { name: 'Ada' });
    const news = await world.createCategory.execute(editor, { name: 'News' });
    const local = await world.createCategory.execute(editor, { name: 'Local', parentId: news.id });
    const sport = await world.createCategory.execute(editor, { name: 'Sport' });
    return { world, author, news, local, sport };
  };

  describe('when an admin, editor or author creates an article', () => {
    it('stores it with zero totals and every reference, readable by any caller of the tenant', async () => {
      const { world, author, news, local } = await setup();
      const article = await world.createArticle.execute(userCaller('acme', 'au-1', 'author'), {
        title: 'Hello',
        content: 'Body text',
        authorId: author.id,
        categoryId: news.id,
        subCategoryId: local.id,
      });
      expect(Object.keys(article)).to.have.members([
        'id', 'title', 'content', 'authorId', 'categoryId', 'subCategoryId', 'reactionsEnabled', 'likes', 'dislikes', 'createdAt', 'updatedAt',
      ]);
      expect(article).to.include({ title: 'Hello', content: 'Body text', authorId: author.id, categoryId: news.id, subCategoryId: local.id });
      expect(article).to.include({ reactionsEnabled: true, likes: 0, dislikes: 0 });
      expect(await world.getArticle.execute(anonymousCaller('acme'), { id: article.id.toUpperCase() })).to.deep.equal(article);
    });

    it('defaults content to empty and references to null', async () => {
      const { world } = await setup();
      const article = await world.createArticle.execute(editor, { title: 'Bare', content: null });
      expect(article).to.include({ content: '', authorId: null, categoryId: null, subCategoryId: null });
    });
  });

  describe('when a reference does not hold', () => {
    const refusals: Array<[string, (s: Awaited<ReturnType<typeof setup>>) => object, string]> = [
      ['an unknown author', () => ({ authorId: '0123456789abcdef01234567' }), 'authorId must be an existing author'],
      ['an unknown category', () => ({ categoryId: '0123456789abcdef01234567' }), 'categoryId must be an existing category'],
      ['a sub-category as category', (s) => ({ categoryId: s.local.id }), 'categoryId must be a top-level category'],
      ['a sub-category without its category', (s) => ({ subCategoryId: s.local.id }), 'categoryId is required with subCategoryId'],
      ['a sub-category of another category', (s) => ({ categoryId: s.sport.id, subCategoryId: s.local.id }), 'subCategoryId must be a sub-category of categoryId'],
      ['a top-level category as sub-category', (s) => ({ categoryId: s.news.id, subCategoryId: s.sport.id }), 'subCategoryId must be a sub-category of categoryId'],
      ['an unknown sub-category', (s) => ({ categoryId: s.news.id, subCategoryId: '0123456789abcdef01234567' }), 'subCategoryId must be an existing category'],
      ['a blank title', () => ({ title: ' ' }), 'title must not be blank'],
    ];
    for (const [name, input, message] of refusals) {
      it(`refuses ${name} and stores nothing`, async () => {
        const s = await setup();
        const error = await domainErrorOf(s.world.createArticle.execute(editor, { title: 'T', ...input(s) }));
        expect(error.code).to.equal(ErrorCodes.VALIDATION_FAILED);
        expect(error.message).to.equal(message);
        expect(await s.world.repositories.articles.listTotals('acme', null, 10)).to.deep.equal([]);
      });
    }

    it('treats another tenant’s author and categories as missing', async () => {
      const s = await setup();
      const other = userCaller('other', 'ed-2', 'editor');
      for (const input of [{ authorId: s.author.id }, { categoryId: s.news.id }]) {
        const error = await domainErrorOf(s.world.createArticle.execute(other, { title: 'T', ...input }));
        expect(error.code).to.equal(ErrorCodes.VALIDATION_FAILED);
      }
    });

    it('refuses members (403) and callers without a token (401)', async () => {
      const { world } = await setup();
      expect((await domainErrorOf(world.createArticle.execute(userCaller('acme', 'm', 'member'), { title: 'T' }))).code).to.equal(ErrorCodes.FORBIDDEN);
      expect((await domainErrorOf(world.createArticle.execute(userCaller('acme', 'm', 'admin', false), { title: 'T' }))).code).to.equal(
        ErrorCodes.UNAUTHORIZED,
      );
    });
  });

  describe('when the article cannot be read', () => {
    it('answers INVALID_ARTICLE_ID for a malformed id and ARTICLE_NOT_FOUND for an unknown or foreign one', async () => {
      const { world } = await setup();
      const article = await world.createArticle.execute(editor, { title: 'T' });
      expect((await domainErrorOf(world.getArticle.execute(editor, { id: 'abc' }))).code).to.equal(ErrorCodes.INVALID_ARTICLE_ID);
      expect((await domainErrorOf(world.getArticle.execute(editor, { id: '0123456789abcdef01234567' }))).code).to.equal(ErrorCodes.ARTICLE_NOT_FOUND);
      expect((await domainErrorOf(world.getArticle.execute(userCaller('other', 'x'), { id: article.id }))).code).to.equal(ErrorCodes.ARTICLE_NOT_FOUND);
    });
  });
});
