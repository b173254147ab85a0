/**
 * The list methods of every content repository (§6.1): keyset pages newest first on
 * `(createdAt, id)` (oldest first when asked), each record once, tenants and groups apart, the
 * filters of the contract's table. Run on the embedded store and on MongoDB.
 */
import { expect } from 'chai';
import type { ArticleRepository, CategoryRepository } from '../../articles/articles.ports.js';
import type { AuthorRepository } from '../../authors/authors.ports.js';
import type { CommentRepository } from '../../comments/comments.ports.js';
import type { Form } from '../../forms/form.js';
import type { FormListFilter, FormRepository, SubmissionRepository } from '../../forms/forms.ports.js';
import type { NotificationOutbox } from '../../notifications/notification.ports.js';
import type { ReactionRepository } from '../../reactions/reactions.ports.js';
import { newId } from '../../shared/ids.js';
import { compareNewestFirst, type KeysetPosition, type PageQuery } from '../../shared/page-cursor.js';
import { articleRecord, authorRecord, categoryRecord, commentRecord } from '../engagement-records.js';
import { formRecord, submissionRecord } from '../form-fixtures.js';
import { useRepository, type RepositoryFactory } from './contract-fixture.js';

export interface ContentRepositories {
  readonly forms: FormRepository;
  readonly submissions: SubmissionRepository;
  readonly authors: AuthorRepository;
  readonly categories: CategoryRepository;
  readonly articles: ArticleRepository;
  readonly comments: CommentRepository;
  readonly reactions: ReactionRepository;
  readonly notificationOutbox: NotificationOutbox;
}

/** Creation times with ties, out of insertion order. */
const TIMES = [5, 3, 5, 9, 1, 5, 7].map((minute) => new Date(Date.UTC(2026, 0, 2, 3, minute, 0, 678)));

interface Kind {
  readonly name: string;
  /** Stores the i-th record of a tenant (one group per tenant) and returns it. */
  readonly insert: (repos: ContentRepositories, tenantId: string, i: number) => Promise<KeysetPosition>;
  readonly list: (repos: ContentRepositories, tenantId: string, page: PageQuery) => Promise<KeysetPosition[]>;
}

/** Group ids shared by the kinds listed within one parent (submissions of a form, comments of an article). */
const FORM_ID = newId();
const ARTICLE_ID = newId();

const KINDS: readonly Kind[] = [
  {
    name: 'forms',
    insert: async (repos, tenantId, i) => {
      const form = formRecord(tenantId, `form-${i}`, { createdAt: TIMES[i]! });
      if (!(await repos.forms.insert(form))) throw new Error('form not stored');
      return form;
    },
    list: (repos, tenantId, page) => repos.forms.list(tenantId, {}, page),
  },
  {
    name: 'submissions of a form',
    insert: (repos, tenantId, i) => keep(repos.submissions, submissionRecord(tenantId, FORM_ID, { createdAt: TIMES[i]! })),
    list: (repos, tenantId, page) => repos.submissions.listByForm(tenantId, FORM_ID, page),
  },
  {
    name: 'authors',
    insert: (repos, tenantId, i) => keep(repos.authors, authorRecord(tenantId, { createdAt: TIMES[i]! })),
    list: (repos, tenantId, page) => repos.authors.list(tenantId, page),
  },
  {
    name: 'categories',
    insert: (repos, tenantId, i) => keep(repos.categories, categoryRecord(tenantId, { createdAt: TIMES[i]! })),
    list: (repos, tenantId, page) => repos.categories.list(tenantId, {}, page),
  },
  {
    name: 'articles',
    insert: (repos, tenantId, i) => keep(repos.articles, articleRecord(tenantId, { createdAt: TIMES[i]! })),
    list: (repos, tenantId, page) => repos.articles.list(tenantId, {}, page),
  },
  {
    name: 'comments of an article',
    insert: (repos, tenantId, i) => keep(repos.comments, commentRecord(tenantId, ARTICLE_ID, { createdAt: TIMES[i]! })),
    list: (repos, tenantId, page) => repos.comments.listByArticle(tenantId, ARTICLE_ID, undefined, page),
  },
];

async function keep<R extends KeysetPosition>(repository: { insert(record: R): Promise<unknown> }, record: R): Promise<KeysetPosition> {
  await repository.insert(record);
  return record;
}

const positionOf = (record: KeysetPosition) => `${record.createdAt.toISOString()} ${record.id}`;

/**
 * The positions of every page of `list`, `size` at a time, each page after the last one's end.
 * Bounded by `most` + 1 pages: a list that ignores `after` would hand the first page back for ever.
 */
async function walkPages(list: (page: PageQuery) => Promise<readonly KeysetPosition[]>, size: number, most: number): Promise<string[]> {
  const seen: string[] = [];
  let after: KeysetPosition | null = null;
  for (let pages = 0; pages <= most; pages += 1) {
    const page: readonly KeysetPosition[] = await list({ after, limit: size });
    seen.push(...page.map(positionOf));
    if (page.length < size) break;
    after = page[page.length - 1]!;
  }
  return seen;
}

export function keysetListContract(name: string, factory: RepositoryFactory<ContentRepositories>): void {
  describe(`Keyset lists contract: ${name}`, () => {
    const repos = useRepository(factory);

    for (const kind of KINDS) {
      describe(`${kind.name}`, () => {
        const seed = async (tenantId: string) => {
          const records: KeysetPosition[] = [];
          for (let i = 0; i < TIMES.length; i += 1) records.push(await kind.insert(repos(), tenantId, i));
          return records;
        };

        it('pages newest first, ties by id descending, each record once, across pages of any size', async () => {
          const records = await seed('acme');
          await seed('other');
          const expected = [...records].sort(compareNewestFirst).map(positionOf);
          for (const size of [1, 3, 7, 10]) {
            const seen = await walkPages((page) => kind.list(repos(), 'acme', page), size, records.length);
            expect(seen, `pages of ${size}`).to.deep.equal(expected);
          }
        });

        it('pages oldest first when asked', async () => {
          const records = await seed('acme');
          const expected = [...records].sort(compareNewestFirst).reverse().map(positionOf);
          const first = await kind.list(repos(), 'acme', { after: null, limit: 4, order: 'oldestFirst' });
          const rest = await kind.list(repos(), 'acme', { after: first[3]!, limit: 10, order: 'oldestFirst' });
          expect([...first, ...rest].map(positionOf)).to.deep.equal(expected);
        });

        it('lists nothing of another tenant', async () => {
          await seed('acme');
          expect(await kind.list(repos(), 'nobody', { after: null, limit: 10 })).to.deep.equal([]);
        });
      });
    }

    it('pages forms filtered by one flag, by both and by none, each match once, in either order', async () => {
      const flags = [
        { isActive: true, visibility: 'public' as const },
        { isActive: false, visibility: 'internal' as const },
        { isActive: true, visibility: 'internal' as const },
        { isActive: false, visibility: 'public' as const },
      ];
      const forms: Form[] = [];
      // Every pair at every time: matches of a one-flag filter tie across the two orders it merges.
      for (const [i, createdAt] of TIMES.entries()) {
        for (const [j, pair] of flags.entries()) {
          const form = formRecord('acme', `f-${i}-${j}`, { createdAt, ...pair });
          await repos().forms.insert(form);
          forms.push(form);
        }
      }
      await repos().forms.insert(formRecord('other', 'f-other', { isActive: true, visibility: 'public' }));
      const filters: FormListFilter[] = [{}, { isActive: true }, { isActive: false }, { visibility: 'public' }, { visibility: 'internal' }, { isActive: false, visibility: 'public' }];
      for (const filter of filters) {
        const matches = forms.filter((form) => (filter.isActive ?? form.isActive) === form.isActive && (filter.visibility ?? form.visibility) === form.visibility);
        const expected = matches.sort(compareNewestFirst).map(positionOf);
        const label = JSON.stringify(filter);
        expect(await walkPages((page) => repos().forms.list('acme', filter, page), 3, forms.length), label).to.deep.equal(expected);
        const oldestFirst = await walkPages((page) => repos().forms.list('acme', filter, { ...page, order: 'oldestFirst' }), 3, forms.length);
        expect(oldestFirst, `${label} oldest first`).to.deep.equal([...expected].reverse());
      }
    });

    it('lists a form under its flags as an update changes them, and under none once deleted', async () => {
      const form = formRecord('acme', 'moving', { isActive: true, visibility: 'public' });
      const staying = formRecord('acme', 'staying', { isActive: true, visibility: 'public' });
      for (const record of [form, staying]) await repos().forms.insert(record);
      const slugs = async (filter: FormListFilter) => (await repos().forms.list('acme', filter, { after: null, limit: 10 })).map((listed) => listed.slug).sort();

      const changed = { ...form, isActive: false, visibility: 'internal' as const, updatedAt: new Date(form.updatedAt.getTime() + 1) };
      expect(await repos().forms.update(changed, form.updatedAt)).to.equal('updated');
      expect(await slugs({ isActive: true })).to.deep.equal(['staying']);
      expect(await slugs({ visibility: 'public' })).to.deep.equal(['staying']);
      expect(await slugs({ isActive: false, visibility: 'internal' })).to.deep.equal(['moving']);
      // Listed at its creation time, which the update keeps.
      expect((await repos().forms.list('acme', { visibility: 'internal' }, { after: null, limit: 1 }))[0]?.createdAt).to.deep.equal(form.createdAt);

      const back = { ...changed, visibility: 'public' as const, updatedAt: new Date(changed.updatedAt.getTime() + 1) };
      expect(await repos().forms.update(back, changed.updatedAt)).to.equal('updated');
      expect(await slugs({ visibility: 'internal' })).to.deep.equal([]);
      expect(await slugs({ isActive: false })).to.deep.equal(['moving']);
      expect(await slugs({ visibility: 'public' })).to.deep.equal(['moving', 'staying']);

      expect(await repos().forms.delete('acme', form.id)).to.equal(true);
      expect([await slugs({ isActive: false }), await slugs({ visibility: 'public' })]).to.deep.equal([[], ['staying']]);
    });

    it('filters articles by author and by category or sub-category', async () => {
      const [author, top, sub] = [newId(), newId(), newId()];
      const byAuthor = articleRecord('acme', { authorId: author, title: 'by author' });
      const inTop = articleRecord('acme', { categoryId: top, title: 'in top' });
      const inSub = articleRecord('acme', { categoryId: top, subCategoryId: sub, authorId: author, title: 'in sub' });
      const elsewhere = articleRecord('acme', { categoryId: newId(), title: 'elsewhere' });
      for (const article of [byAuthor, inTop, inSub, elsewhere]) await repos().articles.insert(article);
      const titles = async (filter: Parameters<ArticleRepository['list']>[1]) =>
        (await repos().articles.list('acme', filter, { after: null, limit: 10 })).map((article) => article.title).sort();
      expect(await titles({ authorId: author })).to.deep.equal(['by author', 'in sub']);
      expect(await titles({ categoryId: top })).to.deep.equal(['in sub', 'in top']);
      expect(await titles({ categoryId: sub })).to.deep.equal(['in sub']);
      expect(await titles({ categoryId: top, authorId: author })).to.deep.equal(['in sub']);
      expect(await titles({ authorId: newId() })).to.deep.equal([]);
    });

    it('filters categories by parent, null meaning top-level', async () => {
      const top = categoryRecord('acme', { name: 'top' });
      const child = categoryRecord('acme', { name: 'child', parentId: top.id });
      await repos().categories.insert(top);
      await repos().categories.insert(child);
      const names = async (filter: Parameters<CategoryRepository['list']>[1]) =>
        (await repos().categories.list('acme', filter, { after: null, limit: 10 })).map((category) => category.name).sort();
      expect(await names({ parentId: null })).to.deep.equal(['top']);
      expect(await names({ parentId: top.id })).to.deep.equal(['child']);
      expect(await names({})).to.deep.equal(['child', 'top']);
    });

    it('pages a list filtered by author, by category, by both and by parent, each match once, newest first', async () => {
      const [author, category, parent] = [newId(), newId(), newId()];
      const matches: Record<string, KeysetPosition[]> = { author: [], category: [], both: [], parent: [] };
      for (const [i, createdAt] of TIMES.entries()) {
        // Each match between records of the same tenant that the filter leaves out.
        const article = articleRecord('acme', { createdAt, ...(i % 2 === 0 ? { authorId: author } : { categoryId: category }) });
        await repos().articles.insert(article);
        matches[i % 2 === 0 ? 'author' : 'category']!.push(article);
        await repos().articles.insert(articleRecord('acme', { createdAt, authorId: newId(), categoryId: newId() }));
        // By the author under the category as its sub-category: a match of all three article filters.
        const both = articleRecord('acme', { createdAt, authorId: author, categoryId: newId(), subCategoryId: category });
        await repos().articles.insert(both);
        for (const name of ['author', 'category', 'both']) matches[name]!.push(both);
        const child = categoryRecord('acme', { createdAt, parentId: parent });
        await repos().categories.insert(child);
        matches.parent!.push(child);
        await repos().categories.insert(categoryRecord('acme', { createdAt, parentId: newId() }));
      }
      const lists: Record<string, (page: PageQuery) => Promise<KeysetPosition[]>> = {
        author: (page) => repos().articles.list('acme', { authorId: author }, page),
        category: (page) => repos().articles.list('acme', { categoryId: category }, page),
        both: (page) => repos().articles.list('acme', { authorId: author, categoryId: category }, page),
        parent: (page) => repos().categories.list('acme', { parentId: parent }, page),
      };
      for (const [name, list] of Object.entries(lists)) {
        const seen = await walkPages(list, 2, TIMES.length);
        expect(seen, name).to.deep.equal([...matches[name]!].sort(compareNewestFirst).map(positionOf));
      }
    });

    it('lists an article under its author and categories as they change, are moved, cleared and deleted', async () => {
      const [ann, bob, top, sub, other] = [newId(), newId(), newId(), newId(), newId()];
      const moving = articleRecord('acme', { authorId: ann, categoryId: top, subCategoryId: sub, title: 'moving' });
      const staying = articleRecord('acme', { authorId: ann, categoryId: other, title: 'staying' });
      for (const article of [moving, staying]) await repos().articles.insert(article);
      const titles = async (filter: Parameters<ArticleRepository['list']>[1]) =>
        (await repos().articles.list('acme', filter, { after: null, limit: 10 })).map((article) => article.title).sort();

      const later = new Date(moving.updatedAt.getTime() + 1);
      expect(await repos().articles.update({ ...moving, authorId: bob, categoryId: other, subCategoryId: null, updatedAt: later }, moving.updatedAt)).to.equal(true);
      expect(await titles({ authorId: ann })).to.deep.equal(['staying']);
      expect(await titles({ authorId: bob })).to.deep.equal(['moving']);
      expect(await titles({ categoryId: top })).to.deep.equal([]);
      expect(await titles({ categoryId: sub })).to.deep.equal([]);
      expect(await titles({ categoryId: other })).to.deep.equal(['moving', 'staying']);
      expect(await titles({ categoryId: other, authorId: bob })).to.deep.equal(['moving']);

      // `other` became a sub-category of `top`: both articles are filed under top / other.
      expect(await repos().articles.refileCategory('acme', other, top)).to.equal(2);
      expect(await titles({ categoryId: top })).to.deep.equal(['moving', 'staying']);
      expect(await titles({ categoryId: other, authorId: ann })).to.deep.equal(['staying']);

      // `top` deleted: its articles lose it and their sub-category with it.
      expect(await repos().articles.clearCategory('acme', top)).to.equal(2);
      expect(await titles({ categoryId: top })).to.deep.equal([]);
      expect(await titles({ categoryId: other })).to.deep.equal([]);

      // Filed under `other` again, by bob: then bob's articles lose their author.
      const refiled = (await repos().articles.findById('acme', moving.id))!;
      expect(await repos().articles.update({ ...refiled, categoryId: other, updatedAt: new Date(refiled.updatedAt.getTime() + 1) }, refiled.updatedAt)).to.equal(true);
      expect(await titles({ categoryId: other, authorId: bob })).to.deep.equal(['moving']);
      expect(await repos().articles.clearAuthor('acme', bob)).to.equal(1);
      expect(await titles({ authorId: bob })).to.deep.equal([]);
      expect(await titles({ categoryId: other, authorId: bob })).to.deep.equal([]);
      expect(await titles({ categoryId: other })).to.deep.equal(['moving']);
      expect(await repos().articles.delete('acme', staying.id)).to.equal(true);
      expect(await titles({ authorId: ann })).to.deep.equal([]);
      expect(await titles({})).to.deep.equal(['moving']);
    });

    it('lists a category under its parent as it moves, becomes top-level and goes', async () => {
      const [one, two] = [categoryRecord('acme', { name: 'one' }), categoryRecord('acme', { name: 'two' })];
      const child = categoryRecord('acme', { name: 'child', parentId: one.id });
      for (const category of [one, two, child]) await repos().categories.insert(category);
      const names = async (parentId: string | null) =>
        (await repos().categories.list('acme', { parentId }, { after: null, limit: 10 })).map((category) => category.name).sort();

      const moved = { ...child, parentId: two.id, updatedAt: new Date(child.updatedAt.getTime() + 1) };
      expect(await repos().categories.update(moved, child.updatedAt)).to.equal(true);
      expect(await names(one.id)).to.deep.equal([]);
      expect(await names(two.id)).to.deep.equal(['child']);
      expect(await names(null)).to.deep.equal(['one', 'two']);

      expect(await repos().categories.update({ ...moved, parentId: null, updatedAt: new Date(moved.updatedAt.getTime() + 1) }, moved.updatedAt)).to.equal(true);
      expect(await names(two.id)).to.deep.equal([]);
      expect(await names(null)).to.deep.equal(['child', 'one', 'two']);

      expect(await repos().categories.delete('acme', one.id)).to.equal(true);
      expect(await names(null)).to.deep.equal(['child', 'two']);
    });

    it('filters an article’s comments by status and keeps other articles’ comments out', async () => {
      const articleId = newId();
      await repos().comments.insert(commentRecord('acme', articleId, { content: 'pending' }));
      await repos().comments.insert(commentRecord('acme', articleId, { content: 'approved', status: 'approved' }));
      await repos().comments.insert(commentRecord('acme', newId(), { content: 'elsewhere' }));
      const contents = async (status: 'pending' | 'approved' | undefined) =>
        (await repos().comments.listByArticle('acme', articleId, status, { after: null, limit: 10 })).map((comment) => comment.content).sort();
      expect(await contents('approved')).to.deep.equal(['approved']);
      expect(await contents('pending')).to.deep.equal(['pending']);
      expect(await contents(undefined)).to.deep.equal(['approved', 'pending']);
    });

    it('pages an article’s comments of one status, each match once, newest first', async () => {
      const articleId = newId();
      const matches: Record<'pending' | 'approved', KeysetPosition[]> = { pending: [], approved: [] };
      for (const [i, createdAt] of TIMES.entries()) {
        for (const status of i % 2 === 0 ? (['pending', 'approved'] as const) : (['approved', 'pending'] as const)) {
          const comment = commentRecord('acme', articleId, { createdAt, status });
          await repos().comments.insert(comment);
          matches[status].push(comment);
        }
      }
      for (const status of ['pending', 'approved'] as const) {
        const seen = await walkPages((page) => repos().comments.listByArticle('acme', articleId, status, page), 2, TIMES.length);
        expect(seen, status).to.deep.equal([...matches[status]].sort(compareNewestFirst).map(positionOf));
      }
    });

    it('lists a comment under its new status once approved, and under none once deleted', async () => {
      const articleId = newId();
      const [first, second, third] = ['first', 'second', 'third'].map((content) => commentRecord('acme', articleId, { content }));
      for (const comment of [first!, second!, third!]) await repos().comments.insert(comment);
      const contents = async (status: 'pending' | 'approved' | undefined) =>
        (await repos().comments.listByArticle('acme', articleId, status, { after: null, limit: 10 })).map((comment) => comment.content).sort();

      expect(await repos().comments.approve('acme', first!.id, 'moderator', new Date(first!.updatedAt.getTime() + 1))).to.include({ changed: true });
      expect(await contents('pending')).to.deep.equal(['second', 'third']);
      expect(await contents('approved')).to.deep.equal(['first']);
      expect(await repos().comments.delete('acme', first!.id)).to.equal(true);
      expect(await repos().comments.delete('acme', second!.id)).to.equal(true);
      expect(await contents('approved')).to.deep.equal([]);
      expect(await contents('pending')).to.deep.equal(['third']);
      expect(await repos().comments.deleteByArticle('acme', articleId)).to.equal(1);
      expect([await contents('pending'), await contents(undefined)]).to.deep.equal([[], []]);
    });

    it('returns records as their single reads do', async () => {
      const author = authorRecord('acme', { email: 'ada@example.com' });
      await repos().authors.insert(author);
      const [listed] = await repos().authors.list('acme', { after: null, limit: 1 });
      expect(listed).to.deep.equal(await repos().authors.findById('acme', author.id));
    });
  });
}
