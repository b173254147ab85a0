import { expect } from 'chai';
import type { ArticleRepository, CategoryRepository } from '../../articles/articles.ports.js';
import { articleRecord, categoryRecord } from '../engagement-records.js';
import { tryToChange, useRepository, type RepositoryFactory } from './contract-fixture.js';
import { describeReactionTotals } from './reaction-totals.contract.js';

const MALFORMED = ['not-an-id', '', '0123456789abcdef0123456', '0123456789abcdef012345678', 'zz23456789abcdef01234567'];

export function categoryRepositoryContract(name: string, factory: RepositoryFactory<CategoryRepository>): void {
  describe(`CategoryRepository contract: ${name}`, () => {
    const repo = useRepository(factory);

    it('stores a category and a sub-category and finds them by id', async () => {
      const parent = categoryRecord('acme');
      const child = categoryRecord('acme', { name: 'Local', parentId: parent.id, reactionsEnabled: false });
      await repo().insert(parent);
      await repo().insert(child);
      expect(await repo().findById('acme', parent.id)).to.deep.equal(parent);
      expect(await repo().findById('acme', child.id)).to.deep.equal(child);
    });

    it('finds several at once, leaving out unknown ids and other tenants', async () => {
      const a = categoryRecord('acme');
      const b = categoryRecord('acme', { name: 'Sport' });
      const foreign = categoryRecord('other');
      for (const category of [a, b, foreign]) await repo().insert(category);
      const found = await repo().findByIds('acme', [a.id, b.id, foreign.id, '0123456789abcdef01234567']);
      expect(found.map((c) => c.id)).to.have.members([a.id, b.id]);
      expect(await repo().findById('acme', foreign.id)).to.equal(null);
      expect(await repo().findByIds('acme', [])).to.deep.equal([]);
    });

    it('finds nothing for malformed ids, without throwing', async () => {
      const a = categoryRecord('acme');
      await repo().insert(a);
      for (const id of MALFORMED) expect(await repo().findById('acme', id), id).to.equal(null);
      expect((await repo().findByIds('acme', [...MALFORMED, a.id])).map((c) => c.id)).to.deep.equal([a.id]);
      expect(await repo().findByIds('acme', MALFORMED)).to.deep.equal([]);
    });

    it('returns records that never change the store when changed', async () => {
      const a = categoryRecord('acme');
      await repo().insert(a);
      const [found] = (await repo().findByIds('acme', [a.id])) as Array<{ name: string }>;
      tryToChange(() => (found!.name = 'mutated'));
      expect((await repo().findById('acme', a.id))?.name).to.equal('News');
    });
  });
}

export function articleRepositoryContract(name: string, factory: RepositoryFactory<ArticleRepository>): void {
  describe(`ArticleRepository contract: ${name}`, () => {
    const repo = useRepository(factory);

    it('stores an article and finds it by id in its tenant only', async () => {
      const article = articleRecord('acme', { content: 'Body', likes: 0, dislikes: 0 });
      await repo().insert(article);
      expect(await repo().findById('acme', article.id)).to.deep.equal(article);
      expect(await repo().findById('other', article.id)).to.equal(null);
    });

    it('clears the author of that author’s articles in the tenant, and of no others', async () => {
      const author = '00000000000000000000000a';
      const mine = [articleRecord('acme', { authorId: author }), articleRecord('acme', { authorId: author })];
      const someoneElses = articleRecord('acme', { authorId: '00000000000000000000000b' });
      const otherTenant = articleRecord('other', { authorId: author });
      for (const article of [...mine, someoneElses, otherTenant]) await repo().insert(article);
      expect(await repo().clearAuthor('acme', author)).to.equal(2);
      for (const article of mine) expect((await repo().findById('acme', article.id))?.authorId).to.equal(null);
      expect((await repo().findById('acme', someoneElses.id))?.authorId).to.equal('00000000000000000000000b');
      expect((await repo().findById('other', otherTenant.id))?.authorId).to.equal(author);
      expect(await repo().clearAuthor('acme', author)).to.equal(0);
    });

    it('files a category’s articles where the category moved, in the tenant only', async () => {
      const [p, q, c, d, t, n] = ['0000000000000000000000a1', '0000000000000000000000a2', '0000000000000000000000c1', '0000000000000000000000d1', '0000000000000000000000e1', '0000000000000000000000f1'];
      const inC = articleRecord('acme', { categoryId: p, subCategoryId: c });
      const inD = articleRecord('acme', { categoryId: p, subCategoryId: d });
      const inT = articleRecord('acme', { categoryId: t });
      const foreign = articleRecord('other', { categoryId: p, subCategoryId: c });
      for (const article of [inC, inD, inT, foreign]) await repo().insert(article);
      const filing = async (article: { id: string }) => {
        const stored = await repo().findById('acme', article.id);
        return [stored?.categoryId, stored?.subCategoryId];
      };
      expect(await repo().refileCategory('acme', c, q)).to.equal(1); // C moved from P to Q
      expect(await filing(inC)).to.deep.equal([q, c]);
      expect(await repo().refileCategory('acme', c, null)).to.equal(1); // C made top-level
      expect(await filing(inC)).to.deep.equal([c, null]);
      expect(await repo().refileCategory('acme', t, n)).to.equal(1); // top-level T given the parent N
      expect(await filing(inT)).to.deep.equal([n, t]);
      expect(await repo().refileCategory('acme', t, n)).to.equal(0);
      expect(await filing(inD)).to.deep.equal([p, d]);
      const other = await repo().findById('other', foreign.id);
      expect([other?.categoryId, other?.subCategoryId]).to.deep.equal([p, c]);
    });

    it('finds and clears nothing for malformed ids, without throwing', async () => {
      await repo().insert(articleRecord('acme', { authorId: '00000000000000000000000a' }));
      for (const id of MALFORMED) {
        expect(await repo().findById('acme', id), id).to.equal(null);
        expect(await repo().clearAuthor('acme', id), id).to.equal(0);
        expect(await repo().refileCategory('acme', id, null), id).to.equal(0);
      }
    });

    it('returns records that never change the store when changed', async () => {
      const article = articleRecord('acme');
      await repo().insert(article);
      const found = (await repo().findById('acme', article.id)) as { title: string };
      tryToChange(() => (found.title = 'mutated'));
      expect((await repo().findById('acme', article.id))?.title).to.equal('Hello');
    });

    describeReactionTotals(repo, async (tenantId) => {
      const article = articleRecord(tenantId);
      await repo().insert(article);
      return article.id;
    }, (tenantId, id) => repo().delete(tenantId, id));
  });
}
