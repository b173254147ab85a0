/**
 * Racing writes on authors, categories, articles, comments and reactions, interleaved at the
 * storage's gated calls in orders fast-check draws (`drawn-races.ts`) and shrinks: two to six
 * use cases started together over a small world, on the repositories `storesFor` gives (the
 * other stores embedded). Each may be refused (a domain error), never
 * fail otherwise; once all have settled, what must hold whatever the order:
 * - categories keep one level of nesting, and every article names an existing author, a
 *   top-level category and one of its sub-categories (or none), so each still takes an update
 *   of its name or title alone;
 * - a delete that answered is final (no racing write brings the record back), a record no
 *   answered delete removed is still there, and a comment goes only with its article;
 * - a list (articles, categories, A0's comments) paged through, one or two a page, while the
 *   others write shows no record twice and every record there throughout;
 * - the stored reaction totals equal the reactions stored (the recount finds no drift), no
 *   reaction is left on a deleted article or comment, and a user's reaction is the one the only
 *   answered request for it set;
 * - every write that answered has its webhook event once (`article.created`, `.updated`,
 *   `.deleted`, `comment.created`, `.approved`, `.deleted`; `article.reaction.changed` when the
 *   reaction changed), a refused write none, no event is left unconfirmed, and a webhook
 *   deleted or disabled by the race receives nothing once it is over (`race-events.ts`).
 * Core's forced interleavings (`category-races.spec.ts`, `references-racing-deletes.spec.ts`)
 * pin single orders; this draws them. RACE_RUNS (default 1000), RACE_SEED, RACE_PATH and
 * RACE_MAX tune it (`describeRaces`).
 * `contentCrashesContract` kills some of these writes at each store call, on the same world, and holds the
 * same checks after a restart and a retry (`crash-points.ts`).
 */
import { expect } from 'chai';
import type { Arbitrary } from 'fast-check';
import { StaticCaptchaVerifier } from '../../captcha/captcha.ports.js';
import { createCore, type Core } from '../../embedded/create-core.js';
import { memoryStores, type CoreStores } from '../../embedded/core-stores.js';
import type { ReactionType } from '../../reactions/reaction.js';
import { actorKey, type Caller } from '../../shared/caller.js';
import type { Clock } from '../../shared/clock.js';
import { userCaller } from '../callers.js';
import { describeCrashes, type CrashOperation } from './crash-points.js';
import { describeRaces, raceOperation, type FastCheck, type RaceOperation } from './drawn-races.js';
import { deletingSecondWebhook, eventLines, RaceEvents, webhookOperations, type SentEvent } from './race-events.js';
import type { RaceGate, RaceOptions } from '../race-gates.js';

/**
 * The repositories the content races run on, their calls waiting at `gate`; a fresh, empty set
 * per race. The webhook stores are the embedded ones unless given.
 */
export type ContentRaceStores = Pick<CoreStores, 'authors' | 'categories' | 'articles' | 'comments' | 'reactions'> & Partial<Pick<CoreStores, 'webhooks' | 'webhookDeliveries'>>;

const TENANT = 'acme';
const editor = userCaller(TENANT, 'ed-1', 'editor');
const readers = ['reader-1', 'reader-2'].map((id) => userCaller(TENANT, id));
const PAGE = { after: null, limit: 1000 } as const;

/** The records made before the race, named by index in the drawn operations. */
interface World {
  readonly core: Core<CoreStores>;
  readonly events: RaceEvents;
  readonly authors: string[];
  /** Top-level first: T0 (S0 under it), T1 (S1 under it), T2 (no children), then S0, S1. */
  readonly categories: string[];
  readonly articles: string[];
  readonly comments: string[];
}

/** The races' core, webhook events recorded. */
function coreFor(stores: CoreStores, clock: Clock, events: RaceEvents): Core<CoreStores> {
  return createCore<CoreStores>({ captcha: new StaticCaptchaVerifier(), stores, clock, webhooks: events.options });
}

async function world(stores: ContentRaceStores, clock: Clock): Promise<World> {
  const events = new RaceEvents();
  const core = coreFor({ ...memoryStores(), ...stores }, clock, events);
  const author = (name: string) => core.authors.create.execute(editor, { name }).then(({ id }) => id);
  const category = (name: string, parentId?: string) => core.articles.createCategory.execute(editor, { name, parentId }).then(({ id }) => id);
  const authors = [await author('Ada'), await author('Grace')];
  const tops = [await category('T0'), await category('T1'), await category('T2')];
  const subs = [await category('S0', tops[0]), await category('S1', tops[1])];
  const article = (title: string, filing: object) => core.articles.create.execute(editor, { title, ...filing }).then(({ id }) => id);
  const articles = [
    await article('A0', { authorId: authors[0], categoryId: tops[0], subCategoryId: subs[0] }),
    await article('A1', { authorId: authors[1], categoryId: tops[1] }),
    await article('A2', { categoryId: tops[2] }),
  ];
  const comment = (articleId: string) => core.comments.create.execute(readers[0]!, { articleId, comment: { content: 'Worth reading.' } }).then(({ id }) => id);
  const comments = [await comment(articles[0]!), await comment(articles[1]!)];
  await core.comments.approve.execute(editor, { id: comments[0]! });
  await core.articles.react.execute(readers[0]!, { articleId: articles[0]!, reaction: { type: 'like' } });
  await core.comments.react.execute(readers[1]!, { commentId: comments[0]!, reaction: { type: 'dislike' } });
  await events.subscribe(core, TENANT);
  return { core, events, authors, categories: [...tops, ...subs], articles, comments };
}

/** The world after a restart: a new core on the same stores, which settles what the dead one left unconfirmed. */
async function restart(w: World, clock: Clock): Promise<World> {
  const core = coreFor(w.core.stores, clock, w.events);
  await w.events.restarted(core);
  return { ...w, core };
}

type Deleted = 'author' | 'category' | 'article' | 'comment';
const recordsOf = (w: World): Record<Deleted, string[]> => ({ author: w.authors, category: w.categories, article: w.articles, comment: w.comments });

/** What an operation that answered did, for the checks. */
type Done =
  | { kind: 'deleted'; what: Deleted; id: string }
  | { kind: 'created'; what: 'category' | 'article'; id: string }
  | { kind: 'created'; what: 'comment'; id: string; articleId: string }
  | { kind: 'reacted'; target: 'article' | 'comment'; id: string; user: number; type: ReactionType | null }
  | { kind: 'listed'; what: 'article' | 'category' | 'comment'; ids: string[] }
  | { kind: 'updatedArticle'; id: string }
  | { kind: 'approved'; id: string }
  | { kind: 'other' };

type Operation = RaceOperation<World, Done>;

const at = <T>(list: readonly T[], drawn: number) => list[drawn % list.length]!;
/** A filing valid in the world as it was before the race: a top-level category and, maybe, its own sub-category. */
function filing(world: World, drawn: { author: number | null; category: number | null; sub: boolean }) {
  const categoryId = drawn.category === null ? null : world.categories[drawn.category]!;
  // S0 is under T0 and S1 under T1; T2 has none.
  const subCategoryId = drawn.sub && drawn.category !== null && drawn.category < 2 ? world.categories[3 + drawn.category]! : null;
  return { authorId: drawn.author === null ? null : at(world.authors, drawn.author), categoryId, subCategoryId };
}

/** Every id of a list, page after page until it has no next cursor. */
async function pagedIds(page: (cursor: string | null) => Promise<{ records: ReadonlyArray<{ id: string }>; nextCursor: string | null }>): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const { records, nextCursor }: { records: ReadonlyArray<{ id: string }>; nextCursor: string | null } = await page(cursor);
    ids.push(...records.map((record) => record.id));
    cursor = nextCursor;
  } while (cursor !== null);
  return ids;
}

/**
 * A write the crash contract kills. A move writes the category, then files its articles where it
 * went: killed in between, it leaves them where the category was until it is retried (or an
 * article's own update files it: `UpdateArticle`). No order of the two writes avoids that without
 * a transaction (decision 0763).
 */
type Crashing = CrashOperation<World, Done> & { readonly refiles?: true };

const removers: Record<Deleted, (w: World) => { execute(caller: Caller, input: { id: string }): Promise<void> }> = {
  author: (w) => w.core.authors.remove,
  category: (w) => w.core.articles.removeCategory,
  article: (w) => w.core.articles.remove,
  comment: (w) => w.core.comments.remove,
};

/** A delete of a record of the world, by index (a second delete of it is refused as not found). */
function deletingOf(what: Deleted, index: number): Crashing {
  const id = (w: World) => at(recordsOf(w)[what], index);
  const done = (w: World): Done => ({ kind: 'deleted', what, id: id(w) });
  return { label: `delete(${what} ${index})`, run: async (w) => (await removers[what](w).execute(editor, { id: id(w) }), done(w)), done };
}

/** A category moved under another (by index) or to the top; its articles follow it (decision 0762). */
function movingCategory(c: number, parent: number | null): Crashing {
  const run = async (w: World): Promise<Done> => {
    const parentId = parent === null ? null : at(w.categories, parent);
    await w.core.articles.updateCategory.execute(editor, { id: at(w.categories, c), changes: { parentId } });
    return { kind: 'other' };
  };
  return { label: `moveCategory(${c} under ${parent})`, run, done: () => ({ kind: 'other' }), refiles: true };
}

/** Drawn into a race: the crash contract's writes are among the operations of the races too. */
const drawn = (fc: FastCheck, { label, run }: Crashing) => raceOperation(fc, label, run);

/** A comment of the world approved (C1 was pending, C0 approved); sent again, it answers and changes nothing. */
function approving(c: number): Crashing {
  const done = (w: World): Done => ({ kind: 'approved', id: at(w.comments, c) });
  return { label: `approveComment(${c})`, run: async (w) => (await w.core.comments.approve.execute(editor, { id: at(w.comments, c) }), done(w)), done };
}

/**
 * A reader's reaction on an article or comment of the world, set (or removed, `null`). Sent again
 * after a fault. Its record and the target's totals are two writes: a process killed between them
 * leaves a drift, which the recount's repair, run after the restart as decision 0402 says, must
 * put right; the check then finds none.
 */
function reacting(target: 'article' | 'comment', index: number, user: number, type: ReactionType | null): Crashing {
  const id = (w: World) => at(target === 'article' ? w.articles : w.comments, index);
  const done = (w: World): Done => ({ kind: 'reacted', target, id: id(w), user, type });
  const run = async (w: World): Promise<Done> => {
    const reaction = type && { type };
    if (target === 'article') await w.core.articles.react.execute(readers[user]!, { articleId: id(w), reaction });
    else await w.core.comments.react.execute(readers[user]!, { commentId: id(w), reaction });
    return done(w);
  };
  const recover = async (w: World) => void (await w.core.maintenance.recountReactions.execute({ tenantId: TENANT, repair: true }));
  return { label: `reactTo${target === 'article' ? 'Article' : 'Comment'}(${index}, reader ${user}, ${type})`, run, done, recover };
}

/** An article created with a filing valid in the world; judged by whether it landed. */
function creatingArticle(drawn: { author: number | null; category: number | null; sub: boolean }): Crashing {
  return {
    label: `createArticle(${JSON.stringify(drawn)})`,
    run: async (w) => ({ kind: 'created', what: 'article', id: (await w.core.articles.create.execute(editor, { title: 'Fresh', ...filing(w, drawn) })).id }),
    landed: async (w) => {
      const added = (await w.core.stores.articles.list(TENANT, {}, PAGE)).find((article) => !w.articles.includes(article.id));
      return added && { kind: 'created', what: 'article', id: added.id };
    },
  };
}

/** A comment on an article of the world, by reader 1; judged by whether it landed. */
function commenting(a: number): Crashing {
  return {
    label: `comment(${a})`,
    run: async (w) => {
      const articleId = at(w.articles, a);
      return { kind: 'created', what: 'comment', id: (await w.core.comments.create.execute(readers[1]!, { articleId, comment: { content: 'Me too.' } })).id, articleId };
    },
    landed: async (w) => {
      const articleId = at(w.articles, a);
      const added = (await w.core.stores.comments.listByArticle(TENANT, articleId, undefined, PAGE)).find((comment) => !w.comments.includes(comment.id));
      return added && { kind: 'created', what: 'comment', id: added.id, articleId };
    },
  };
}

/** An article of the world retitled; judged by whether it landed. */
function renamingArticle(a: number): Crashing {
  const done = (w: World): Done => ({ kind: 'updatedArticle', id: at(w.articles, a) });
  return {
    label: `renameArticle(${a})`,
    run: async (w) => (await w.core.articles.update.execute(editor, { id: at(w.articles, a), changes: { title: 'Renamed' } }), done(w)),
    landed: async (w) => ((await w.core.stores.articles.findById(TENANT, at(w.articles, a)))?.title === 'Renamed' ? done(w) : undefined),
  };
}

/**
 * The writes the crash contract faults at each store call: the deletes of an author with an
 * article (Ada, A0's), of a top-level category with an article and no sub-category (T2), of a
 * sub-category with an article (S0), of an article with an approved, reacted-to comment and a
 * reaction (A0), and of that comment (C0); a sub-category moved under another top-level
 * category (S0 under T1) and to the top (S0), and a top-level category moved under another (T2
 * under T0), each refiling its article; C1's approval; the delete of the second webhook with a
 * delivery in its log; a like on A0, reader 0's like on A0 taken back, a dislike on C0 (the
 * recount's repair run after the restart); each sent again. An article created under
 * an author and categories, a comment on A0 and A0 retitled, each judged by whether it landed.
 */
const CRASHING: readonly Crashing[] = [
  ...[deletingOf('author', 0), deletingOf('category', 2), deletingOf('category', 3), deletingOf('article', 0), deletingOf('comment', 0)],
  ...[movingCategory(3, 1), movingCategory(3, null), movingCategory(2, 0), approving(1)],
  ...[reacting('article', 0, 1, 'like'), reacting('article', 0, 0, null), reacting('comment', 0, 0, 'dislike')],
  deletingSecondWebhook<World, Done>({ kind: 'other' }, (w) => w.core.articles.update.execute(editor, { id: w.articles[2]!, changes: { title: 'A2, again' } })),
  ...[creatingArticle({ author: 0, category: 0, sub: true }), commenting(0), renamingArticle(0)],
];

/** The operations a race draws from, over the world's records by index. */
function contentOperations(fc: FastCheck): Arbitrary<Operation> {
  const index = fc.nat({ max: 9 });
  const filings = fc.record({ author: fc.option(index), category: fc.option(fc.nat({ max: 2 })), sub: fc.boolean() });
  const reactions = fc.constantFrom<ReactionType | null>('like', 'dislike', null);
  const operation = (label: string, run: Operation['run']) => raceOperation(fc, label, run);
  /** A delete of a record of the world, drawn by index (a second delete of it is refused). */
  const deleting = (what: Deleted) => index.map((i) => drawn(fc, deletingOf(what, i)));
  return fc.oneof(
    ...webhookOperations<World, Done>(fc, { kind: 'other' }),
    fc.constant(operation('recountReactions', async (w) => {
      await w.core.maintenance.recountReactions.execute({ tenantId: TENANT });
      return { kind: 'other' };
    })),
    deleting('author'),
    index.map((a) => operation(`renameAuthor(${a})`, async (w) => {
      await w.core.authors.update.execute(editor, { id: at(w.authors, a), changes: { name: 'Renamed' } });
      return { kind: 'other' };
    })),
    fc.option(index).map((parent) => operation(`createCategory(under ${parent})`, async (w) => {
      const parentId = parent === null ? undefined : at(w.categories, parent);
      const { id } = await w.core.articles.createCategory.execute(editor, { name: 'New', parentId });
      return { kind: 'created', what: 'category', id };
    })),
    fc.tuple(index, fc.option(index)).map(([c, parent]) => drawn(fc, movingCategory(c, parent))),
    fc.tuple(index, fc.boolean()).map(([c, enabled]) => operation(`switchCategoryReactions(${c}, ${enabled})`, async (w) => {
      await w.core.articles.updateCategory.execute(editor, { id: at(w.categories, c), changes: { reactionsEnabled: enabled } });
      return { kind: 'other' };
    })),
    deleting('category'),
    filings.map((filed) => drawn(fc, creatingArticle(filed))),
    fc.tuple(index, filings).map(([a, drawn]) => operation(`refileArticle(${a}, ${JSON.stringify(drawn)})`, async (w) => {
      const id = at(w.articles, a);
      await w.core.articles.update.execute(editor, { id, changes: filing(w, drawn) });
      return { kind: 'updatedArticle', id };
    })),
    index.map((a) => drawn(fc, renamingArticle(a))),
    fc.tuple(fc.constantFrom('article', 'category', 'comment' as const), fc.integer({ min: 1, max: 2 })).map(([what, size]) => operation(`page(${what}s, ${size} a page)`, async (w) => {
      const ids = await pagedIds(async (cursor) => {
        const input = { limit: String(size), ...(cursor === null ? {} : { cursor }) };
        if (what === 'category') {
          const { categories, nextCursor } = await w.core.articles.listCategories.execute(editor, input);
          return { records: categories, nextCursor };
        }
        if (what === 'comment') {
          // A0's comments, as an editor lists them (C0, approved before the race, among them).
          const { comments, nextCursor } = await w.core.comments.list.execute(editor, { ...input, articleId: w.articles[0]! });
          return { records: comments, nextCursor };
        }
        const { articles, nextCursor } = await w.core.articles.list.execute(editor, input);
        return { records: articles, nextCursor };
      });
      return { kind: 'listed', what, ids };
    })),
    deleting('article'),
    fc.tuple(index, fc.nat({ max: 1 }), reactions).map(([a, user, type]) => drawn(fc, reacting('article', a, user, type))),
    index.map((a) => drawn(fc, commenting(a))),
    index.map((c) => drawn(fc, approving(c))),
    deleting('comment'),
    fc.tuple(index, fc.nat({ max: 1 }), reactions).map(([c, user, type]) => drawn(fc, reacting('comment', c, user, type))),
  );
}

/** A1's comment C1, A0's C0. */
const commentArticles = (w: World) => new Map([[w.comments[0]!, w.articles[0]!], [w.comments[1]!, w.articles[1]!]]);

/**
 * What reads show whatever the writes did, even one killed half-way (the crash contract):
 * categories keep one level of nesting; every article names an existing author, a top-level
 * category and one of its sub-categories (or none: a move `killed` before its refile may have
 * left an article's sub-category under another category); no comment is left of an article
 * that is gone, and no reaction of an article or comment that is gone. Answers what is there.
 */
async function expectIntact(w: World, killed?: Crashing) {
  const { stores } = w.core;
  const categories = new Map((await stores.categories.list(TENANT, {}, PAGE)).map((category) => [category.id, category]));
  const authors = new Set((await stores.authors.list(TENANT, PAGE)).map((author) => author.id));
  const articles = await stores.articles.list(TENANT, {}, PAGE);
  for (const category of categories.values()) {
    if (category.parentId === null) continue;
    expect(categories.get(category.parentId)?.parentId, `category ${category.id}'s parent is a top-level category`).to.equal(null);
  }
  for (const article of articles) {
    const { id, authorId, categoryId, subCategoryId } = article;
    if (authorId !== null) expect(authors.has(authorId), `article ${id} names an existing author`).to.equal(true);
    if (killed?.refiles) {
      // Unfiled until the move is retried, but naming categories that are there.
      for (const named of [categoryId, subCategoryId]) if (named !== null) expect(categories.has(named), `article ${id} names an existing category`).to.equal(true);
      continue;
    }
    if (categoryId !== null) expect(categories.get(categoryId)?.parentId, `article ${id} names a top-level category`).to.equal(null);
    if (subCategoryId !== null) expect(categories.get(subCategoryId)?.parentId, `article ${id} names a sub-category of its category`).to.equal(categoryId ?? 'a category');
  }
  const goneArticles = w.articles.filter((id) => !articles.some((article) => article.id === id));
  for (const articleId of goneArticles) expect(await stores.comments.listByArticle(TENANT, articleId, undefined, PAGE), `comments of deleted article ${articleId}`).to.deep.equal([]);
  const goneComments: string[] = [];
  for (const id of w.comments) if ((await stores.comments.findById(TENANT, id)) === null) goneComments.push(id);
  for (const [kind, gone] of [['article', goneArticles], ['comment', goneComments]] as const) {
    const left = [...(await stores.reactions.tally(TENANT, kind, gone))].filter(([, totals]) => totals.likes + totals.dislikes > 0);
    expect(left, `reactions left on deleted ${kind}s`).to.deep.equal([]);
  }
  return { categories, authors, articles };
}

async function expectConsistent(w: World, done: Done[]): Promise<void> {
  expectEvents(w, done, await w.events.delivered(w.core)); // before the renames below write events of their own
  const { stores } = w.core;
  const { categories, authors, articles } = await expectIntact(w);
  for (const category of categories.keys()) await w.core.articles.updateCategory.execute(editor, { id: category, changes: { name: 'Renamed after' } });
  for (const article of articles) await w.core.articles.update.execute(editor, { id: article.id, changes: { title: 'Renamed after' } });

  const deleted = new Set(done.flatMap((d) => (d.kind === 'deleted' ? [d.id] : [])));
  const exists = {
    author: (id: string) => authors.has(id),
    category: (id: string) => categories.has(id),
    article: (id: string) => articles.some((article) => article.id === id),
    comment: async (id: string) => (await stores.comments.findById(TENANT, id)) !== null,
  };
  for (const d of done) {
    if (d.kind === 'deleted') expect(await exists[d.what](d.id), `${d.what} ${d.id} stays deleted`).to.equal(false);
    if (d.kind === 'created' && d.what !== 'comment') expect(await exists[d.what](d.id), `created ${d.what} ${d.id}`).to.equal(true);
    if (d.kind === 'created' && d.what === 'comment') expect(await exists.comment(d.id), `created comment ${d.id}`).to.equal(!deleted.has(d.articleId));
  }
  for (const id of w.authors) expect(exists.author(id), `author ${id}`).to.equal(!deleted.has(id));
  for (const id of w.categories) expect(exists.category(id), `category ${id}`).to.equal(!deleted.has(id));
  for (const id of w.articles) expect(exists.article(id), `article ${id}`).to.equal(!deleted.has(id));
  const articleOf = commentArticles(w);
  for (const id of w.comments) expect(await exists.comment(id), `comment ${id}`).to.equal(!deleted.has(id) && !deleted.has(articleOf.get(id)!));

  // Keyset pages (createdAt, id) under racing writes: nothing twice, nothing there throughout missed.
  for (const d of done) {
    if (d.kind !== 'listed') continue;
    expect(new Set(d.ids).size, `a paged ${d.what} list shows none twice: ${d.ids.join(', ')}`).to.equal(d.ids.length);
    const there = { article: w.articles, category: w.categories, comment: w.comments.filter((id) => articleOf.get(id) === w.articles[0]) }[d.what];
    for (const id of there) {
      // A comment goes with its article (A0's delete may answer after the comments went).
      if (!deleted.has(id) && !deleted.has(articleOf.get(id) ?? '')) expect(d.ids, `a paged ${d.what} list shows ${id}, there throughout`).to.include(id);
    }
  }

  const drift = await w.core.maintenance.recountReactions.execute({ tenantId: TENANT });
  expect(drift.drifts, 'stored totals equal the reactions stored').to.deep.equal([]);
  const gone = [...deleted];
  for (const kind of ['article', 'comment'] as const) {
    const left = [...(await stores.reactions.tally(TENANT, kind, gone))].filter(([, totals]) => totals.likes + totals.dislikes > 0);
    expect(left, `reactions left on deleted ${kind}s`).to.deep.equal([]);
  }
  for (const d of done) {
    if (d.kind !== 'reacted' || deleted.has(d.id) || deleted.has(articleOf.get(d.id) ?? '')) continue;
    const others = done.filter((o) => o !== d && o.kind === 'reacted' && o.id === d.id && o.user === d.user);
    if (others.length > 0) continue;
    const key = { tenantId: TENANT, targetKind: d.target, targetId: d.id, actor: actorKey(readers[d.user]!)! };
    expect(await stores.reactions.findReaction(key), `reader ${d.user}'s reaction on ${d.target} ${d.id}`).to.equal(d.type);
  }
}

/**
 * Each answered write's event once and a refused write's none. Before the race C0 was approved
 * (C1 was not) and reader 0 liked A0: a reaction changes when it differs from its user's
 * reaction before, which a race decides only for a user with one answered reaction on an article
 * the race does not delete.
 */
function expectEvents(w: World, done: Done[], events: SentEvent[]): void {
  const deleted = new Set(done.flatMap((d) => (d.kind === 'deleted' ? [d.id] : [])));
  const expected: string[] = [];
  for (const d of done) {
    if (d.kind === 'created' && d.what !== 'category') expected.push(`${d.what}.created ${d.id}`);
    if (d.kind === 'deleted' && (d.what === 'article' || d.what === 'comment')) expected.push(`${d.what}.deleted ${d.id}`);
    if (d.kind === 'updatedArticle') expected.push(`article.updated ${d.id}`);
  }
  const approvedC1 = done.some((d) => d.kind === 'approved' && d.id === w.comments[1]);
  if (approvedC1) expected.push(`comment.approved ${w.comments[1]}`);
  const reactionChanges = events.filter((event) => event.type === 'article.reaction.changed');
  expect(eventLines(events.filter((event) => event.type !== 'article.reaction.changed')), 'the events of the answered writes').to.deep.equal(expected.sort());
  for (const event of events.filter((e) => e.type === 'comment.deleted')) {
    expect(event.data, 'a comment.deleted names the comment and its article').to.have.keys('id', 'articleId');
  }
  for (const id of w.articles) {
    const reacted = done.filter((d): d is Extract<Done, { kind: 'reacted' }> => d.kind === 'reacted' && d.target === 'article' && d.id === id);
    const sent = reactionChanges.filter((event) => event.data.articleId === id).length;
    const decided = [0, 1].flatMap((user) => {
      const own = reacted.filter((d) => d.user === user);
      const before = id === w.articles[0] && user === 0 ? 'like' : null;
      return own.length === 1 && own[0]!.type !== before ? [own[0]] : [];
    });
    // A delete of the article takes its reactions: a removal that answered after it changed nothing.
    const changed = deleted.has(id) ? 0 : decided.length;
    expect(sent, `article.reaction.changed events of ${id}`).to.be.within(changed, reacted.length);
  }
  const worldArticles = new Set(w.articles);
  for (const event of reactionChanges) expect(worldArticles.has(event.data.articleId!), 'a reaction event names an article of the world').to.equal(true);
}

/** Registers the races on the repositories `storesFor` makes, one fresh set per race, their calls waiting at `gate`. */
export function contentRacesContract(name: string, storesFor: (gate: RaceGate) => Promise<ContentRaceStores>, options: RaceOptions = {}): void {
  describeRaces({ suite: `Content races contract: ${name}`, holds: 'racing content writes keep every reference, delete and total consistent in any drawn order', operations: contentOperations, world, check: expectConsistent }, storesFor, options);
}

/**
 * Registers the crash contract on the repositories `storesFor` makes, one fresh set per run:
 * deletes with cascades and category moves killed at each of their store calls, then retried
 * after a restart (`crash-points.ts`). Reads must be intact at every crash point
 * (`expectIntact`), and the retry must leave what the race contract's checks ask of one
 * answered write, its webhook event once and no drift between totals and reactions among them.
 */
export function contentCrashesContract(name: string, storesFor: (gate: RaceGate) => Promise<ContentRaceStores>): void {
  describeCrashes({ suite: `Content crashes contract: ${name}`, operations: CRASHING, world, restart, intact: async (w, killed) => void (await expectIntact(w, killed)), check: expectConsistent }, storesFor);
}
