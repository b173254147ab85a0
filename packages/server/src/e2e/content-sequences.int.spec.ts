/**
 * Random sequences of valid operations on authors, categories, articles, comments and reactions
 * (fast-check's model-based runs, shrunk to the shortest failing sequence), with what must hold
 * after any of them: every category and article still takes an update of its name or title
 * alone; an article names only an existing author, a top-level category and one of its
 * sub-categories; categories keep one level of nesting; totals equal the reactions the answers
 * said were saved; an article lists exactly its comments. On both test storages; the helpers
 * and settings are in testing/command-sequences.ts.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { at, describeSequences, expectStatus, weighted, type SequenceService } from '../testing/command-sequences.js';
import { pageThrough } from '../testing/page-through.js';

type Reaction = 'like' | 'dislike';

/** What a run has created and not removed; records of earlier runs stay in the service, unseen. */
interface ContentModel {
  readonly authors: string[];
  /** Category id → its parent's id, null at the top. */
  readonly categories: Map<string, string | null>;
  /** Article id → the reactions saved on it, by user. */
  readonly articles: Map<string, Map<string, Reaction>>;
  readonly comments: Map<string, { readonly articleId: string; approved: boolean; readonly reactions: Map<string, Reaction> }>;
}

interface Service extends SequenceService {
  /** A user id no run has used yet: the runs share one service. */
  user(index: number): string;
}

type ContentCommand = fc.AsyncCommand<ContentModel, Service>;

const topLevel = (model: Readonly<ContentModel>) => [...model.categories].filter(([, parent]) => parent === null).map(([id]) => id);
const childrenOf = (model: Readonly<ContentModel>, id: string) => [...model.categories].filter(([, parent]) => parent === id).map(([child]) => child);

/** References drawn as indices; `filing` turns them into a valid author, category and sub-category (or none). */
interface Filing {
  readonly author: number | null;
  readonly category: number | null;
  readonly subCategory: number | null;
}

const filings = fc.record({ author: fc.option(fc.nat()), category: fc.option(fc.nat()), subCategory: fc.option(fc.nat()) });

function filing(model: Readonly<ContentModel>, drawn: Filing): Record<string, string | null> {
  const tops = topLevel(model);
  const categoryId = drawn.category === null || tops.length === 0 ? null : at(tops, drawn.category);
  const children = categoryId === null ? [] : childrenOf(model, categoryId);
  return {
    authorId: drawn.author === null || model.authors.length === 0 ? null : at(model.authors, drawn.author),
    categoryId,
    subCategoryId: drawn.subCategory === null || children.length === 0 ? null : at(children, drawn.subCategory),
  };
}

class CreateAuthor implements ContentCommand {
  check = () => true;
  async run(model: ContentModel, { api, editor }: Service) {
    const res = await api.call('POST', '/authors/create', { headers: editor, body: { name: 'Writer' } });
    expectStatus(res, [201], 'author create');
    model.authors.push(res.body.data.author.id);
  }
  toString = () => 'createAuthor';
}

class DeleteAuthor implements ContentCommand {
  constructor(readonly author: number) {}
  check = (model: Readonly<ContentModel>) => model.authors.length > 0;
  async run(model: ContentModel, { api, editor }: Service) {
    const id = at(model.authors, this.author);
    expectStatus(await api.call('DELETE', `/authors/delete/${id}`, { headers: editor }), [200], 'author delete');
    model.authors.splice(model.authors.indexOf(id), 1);
  }
  toString = () => `deleteAuthor(${this.author})`;
}

class CreateCategory implements ContentCommand {
  constructor(readonly parent: number | null, readonly reactionsEnabled: boolean) {}
  check = () => true;
  async run(model: ContentModel, { api, editor }: Service) {
    const tops = topLevel(model);
    const parentId = this.parent === null || tops.length === 0 ? null : at(tops, this.parent);
    const res = await api.call('POST', '/categories/create', { headers: editor, body: { name: 'Section', parentId, reactionsEnabled: this.reactionsEnabled } });
    expectStatus(res, [201], 'category create');
    model.categories.set(res.body.data.category.id, parentId);
  }
  toString = () => `createCategory(parent ${this.parent}, reactions ${this.reactionsEnabled})`;
}

class MoveCategory implements ContentCommand {
  constructor(readonly category: number, readonly parent: number | null) {}
  check = (model: Readonly<ContentModel>) => model.categories.size > 0;
  async run(model: ContentModel, { api, editor }: Service) {
    const id = at([...model.categories.keys()], this.category);
    const tops = topLevel(model).filter((top) => top !== id);
    const parentId = this.parent === null || tops.length === 0 ? null : at(tops, this.parent);
    const res = await api.call('PATCH', `/categories/update/${id}`, { headers: editor, body: { parentId } });
    // One level of nesting: a category with sub-categories cannot get a parent.
    expectStatus(res, parentId !== null && childrenOf(model, id).length > 0 ? [400] : [200], 'category move');
    if (res.status === 200) model.categories.set(id, parentId);
  }
  toString = () => `moveCategory(${this.category} under ${this.parent})`;
}

class DeleteCategory implements ContentCommand {
  constructor(readonly category: number) {}
  check = (model: Readonly<ContentModel>) => model.categories.size > 0;
  async run(model: ContentModel, { api, editor }: Service) {
    const id = at([...model.categories.keys()], this.category);
    const res = await api.call('DELETE', `/categories/delete/${id}`, { headers: editor });
    expectStatus(res, childrenOf(model, id).length > 0 ? [409] : [200], 'category delete');
    if (res.status === 200) model.categories.delete(id);
  }
  toString = () => `deleteCategory(${this.category})`;
}

class CreateArticle implements ContentCommand {
  constructor(readonly filing: Filing, readonly reactionsEnabled: boolean) {}
  check = () => true;
  async run(model: ContentModel, { api, editor }: Service) {
    const body = { title: 'Story', ...filing(model, this.filing), reactionsEnabled: this.reactionsEnabled };
    const res = await api.call('POST', '/articles/create', { headers: editor, body });
    expectStatus(res, [201], 'article create');
    model.articles.set(res.body.data.article.id, new Map());
  }
  toString = () => `createArticle(${JSON.stringify(this.filing)}, reactions ${this.reactionsEnabled})`;
}

class RefileArticle implements ContentCommand {
  constructor(readonly article: number, readonly filing: Filing) {}
  check = (model: Readonly<ContentModel>) => model.articles.size > 0;
  async run(model: ContentModel, { api, editor }: Service) {
    const id = at([...model.articles.keys()], this.article);
    expectStatus(await api.call('PATCH', `/articles/update/${id}`, { headers: editor, body: filing(model, this.filing) }), [200], 'article refile');
  }
  toString = () => `refileArticle(${this.article}, ${JSON.stringify(this.filing)})`;
}

/** Reactions turned on or off on an article or a category (saved reactions still count). */
class SwitchReactions implements ContentCommand {
  constructor(readonly on: 'articles' | 'categories', readonly target: number, readonly enabled: boolean) {}
  check = (model: Readonly<ContentModel>) => model[this.on].size > 0;
  async run(model: ContentModel, { api, editor }: Service) {
    const id = at([...model[this.on].keys()], this.target);
    expectStatus(await api.call('PATCH', `/${this.on}/update/${id}`, { headers: editor, body: { reactionsEnabled: this.enabled } }), [200], 'reactions switch');
  }
  toString = () => `switchReactions(${this.on} ${this.target}, ${this.enabled})`;
}

class DeleteArticle implements ContentCommand {
  constructor(readonly article: number) {}
  check = (model: Readonly<ContentModel>) => model.articles.size > 0;
  async run(model: ContentModel, { api, editor }: Service) {
    const id = at([...model.articles.keys()], this.article);
    expectStatus(await api.call('DELETE', `/articles/delete/${id}`, { headers: editor }), [200], 'article delete');
    model.articles.delete(id);
    for (const [comment, { articleId }] of model.comments) if (articleId === id) model.comments.delete(comment);
  }
  toString = () => `deleteArticle(${this.article})`;
}

/** A user's reaction set (`like`/`dislike`) or removed (`null`) on an article or an approved comment. */
class React implements ContentCommand {
  constructor(readonly on: 'article' | 'comment', readonly target: number, readonly user: number, readonly reaction: Reaction | null) {}
  check = (model: Readonly<ContentModel>) => (this.on === 'article' ? model.articles.size : model.comments.size) > 0;
  async run(model: ContentModel, { api, user }: Service) {
    const { path, reactions, pending } = this.#target(model);
    const headers = { 'x-user-id': user(this.user) };
    const res = this.reaction === null ? await api.call('DELETE', path, { headers }) : await api.call('PUT', path, { headers, body: { type: this.reaction } });
    // 403: reactions are off on the article or a category it is filed under; a pending comment is 404.
    expectStatus(res, pending ? [404] : [200, 403], `${this.on} reaction`);
    if (res.status !== 200) return;
    if (this.reaction === null) reactions.delete(user(this.user));
    else reactions.set(user(this.user), this.reaction);
  }

  #target(model: ContentModel): { path: string; reactions: Map<string, Reaction>; pending: boolean } {
    if (this.on === 'article') {
      const [id, reactions] = at([...model.articles], this.target);
      return { path: `/articles/${id}/reaction`, reactions, pending: false };
    }
    const [id, comment] = at([...model.comments], this.target);
    return { path: `/articles/comments/${id}/reaction`, reactions: comment.reactions, pending: !comment.approved };
  }

  toString = () => `react(${this.on} ${this.target}, user ${this.user}, ${this.reaction})`;
}

class Comment implements ContentCommand {
  constructor(readonly article: number) {}
  check = (model: Readonly<ContentModel>) => model.articles.size > 0;
  async run(model: ContentModel, { api, user }: Service) {
    const articleId = at([...model.articles.keys()], this.article);
    const res = await api.call('POST', `/articles/${articleId}/comments`, { headers: { 'x-user-id': user(0) }, body: { content: 'Well put' } });
    expectStatus(res, [201], 'comment');
    model.comments.set(res.body.data.comment.id, { articleId, approved: false, reactions: new Map() });
  }
  toString = () => `comment(article ${this.article})`;
}

class ApproveComment implements ContentCommand {
  constructor(readonly comment: number) {}
  check = (model: Readonly<ContentModel>) => model.comments.size > 0;
  async run(model: ContentModel, { api, editor }: Service) {
    const [id, comment] = at([...model.comments], this.comment);
    expectStatus(await api.call('PUT', `/articles/comments/${id}/approve`, { headers: editor }), [200], 'approve');
    comment.approved = true;
  }
  toString = () => `approve(${this.comment})`;
}

class DeleteComment implements ContentCommand {
  constructor(readonly comment: number) {}
  check = (model: Readonly<ContentModel>) => model.comments.size > 0;
  async run(model: ContentModel, { api, editor }: Service) {
    const id = at([...model.comments.keys()], this.comment);
    expectStatus(await api.call('DELETE', `/articles/comments/${id}`, { headers: editor }), [200], 'comment delete');
    model.comments.delete(id);
  }
  toString = () => `deleteComment(${this.comment})`;
}

const totalsOf = (reactions: ReadonlyMap<string, Reaction>) => {
  const values = [...reactions.values()];
  return { likes: values.filter((type) => type === 'like').length, dislikes: values.filter((type) => type === 'dislike').length };
};

class CheckContent implements ContentCommand {
  check = () => true;
  async run(model: ContentModel, { api, editor, user }: Service) {
    for (const [id, parentId] of model.categories) {
      const renamed = await api.call('PATCH', `/categories/update/${id}`, { headers: editor, body: { name: 'Checked' } });
      expectStatus(renamed, [200], `name-only update of category ${id}`);
      expect(renamed.body.data.category.parentId, `parent of ${id}`).to.equal(parentId);
    }
    const filed = new Map<string, string[]>(); // author or category id → the run's articles that name it
    const file = (reference: string | null, article: string) => reference !== null && filed.set(reference, [...(filed.get(reference) ?? []), article]);
    for (const [id, reactions] of model.articles) {
      // Read before the update: an article's own write files it again, which would hide a cascade that did not.
      const read = await api.call('GET', `/articles/getById/${id}`);
      expectStatus(read, [200], `article ${id}`);
      const { authorId, categoryId, subCategoryId, likes, dislikes } = read.body.data.article;
      [authorId, categoryId, subCategoryId].forEach((reference) => file(reference, id));
      if (authorId !== null) expect(model.authors, `author of ${id}`).to.include(authorId);
      if (categoryId !== null) expect(model.categories.get(categoryId), `category of ${id} is a top-level category`).to.equal(null);
      if (subCategoryId !== null) expect(model.categories.get(subCategoryId), `sub-category of ${id} is a child of its category`).to.equal(categoryId);
      expect({ likes, dislikes }, `totals of ${id}`).to.deep.equal(totalsOf(reactions));
      expectStatus(await api.call('PATCH', `/articles/update/${id}`, { headers: editor, body: { title: 'Checked' } }), [200], `title-only update of article ${id}`);
      const listed = await api.call('GET', `/articles/${id}/comments?status=all&limit=100`, { headers: editor });
      expectStatus(listed, [200], `comments of ${id}`);
      const expected = [...model.comments].filter(([, comment]) => comment.articleId === id).map(([comment]) => comment);
      expect(listed.body.data.comments.map((comment: { id: string }) => comment.id).sort(), `comments of ${id}`).to.deep.equal(expected.sort());
    }
    // The lists' filters find what the records name (no index left behind by a move, refile or delete).
    for (const author of model.authors) {
      expect((await pageThrough(api, `/articles/list?authorId=${author}`, 'articles', 5)).sort(), `articles of author ${author}`).to.deep.equal((filed.get(author) ?? []).sort());
    }
    for (const [category] of model.categories) {
      const listed = await pageThrough(api, `/articles/list?categoryId=${category}`, 'articles', 5);
      expect(listed.sort(), `articles in category ${category}`).to.deep.equal((filed.get(category) ?? []).sort());
      const children = await pageThrough(api, `/categories/list?parentId=${category}`, 'categories', 5);
      expect(children.sort(), `sub-categories of ${category}`).to.deep.equal(childrenOf(model, category).sort());
    }
    for (const [id, comment] of model.comments) {
      const summary = await api.call('GET', `/articles/comments/${id}/reactionSummary`, { headers: { 'x-user-id': user(0) } });
      expectStatus(summary, [comment.approved ? 200 : 404], `summary of comment ${id}`);
      if (!comment.approved) continue;
      const { likes, dislikes, userReaction } = summary.body.data;
      expect({ likes, dislikes }, `totals of comment ${id}`).to.deep.equal(totalsOf(comment.reactions));
      expect(userReaction, `user 0's reaction to comment ${id}`).to.equal(comment.reactions.get(user(0)) ?? null);
    }
  }
  toString = () => 'check';
}

const reactions = fc.constantFrom<Reaction | null>('like', 'dislike', null);

/** Each generator with its weight: records come often enough for moves, deletes and reactions to have something to act on. */
const contentCommands = weighted<ContentCommand>([
  [2, fc.constant(new CreateAuthor())],
  [1, fc.nat().map((author) => new DeleteAuthor(author))],
  [3, fc.tuple(fc.option(fc.nat()), fc.boolean()).map(([parent, enabled]) => new CreateCategory(parent, enabled))],
  [2, fc.tuple(fc.nat(), fc.option(fc.nat())).map(([category, parent]) => new MoveCategory(category, parent))],
  [1, fc.nat().map((category) => new DeleteCategory(category))],
  [3, fc.tuple(filings, fc.boolean()).map(([drawn, enabled]) => new CreateArticle(drawn, enabled))],
  [2, fc.tuple(fc.nat(), filings).map(([article, drawn]) => new RefileArticle(article, drawn))],
  [1, fc.nat().map((article) => new DeleteArticle(article))],
  [1, fc.tuple(fc.constantFrom('articles' as const, 'categories' as const), fc.nat(), fc.boolean()).map((drawn) => new SwitchReactions(...drawn))],
  [3, fc.tuple(fc.nat(), fc.nat({ max: 3 }), reactions).map(([article, user, reaction]) => new React('article', article, user, reaction))],
  [2, fc.nat().map((article) => new Comment(article))],
  [2, fc.nat().map((comment) => new ApproveComment(comment))],
  [2, fc.tuple(fc.nat(), fc.nat({ max: 3 }), reactions).map(([comment, user, reaction]) => new React('comment', comment, user, reaction))],
  [1, fc.nat().map((comment) => new DeleteComment(comment))],
  [1, fc.constant(new CheckContent())],
]);

describeSequences<ContentModel, Service>({
  operations: 'author, category, article, comment and reaction',
  holds: 'leave every record updatable, every article filed and counted as its answers said',
  commands: contentCommands,
  start: (service, run) => ({
    model: { authors: [], categories: new Map(), articles: new Map(), comments: new Map() },
    real: { ...service, user: (index) => `sequence-${run}-user-${index}` },
  }),
  check: new CheckContent(),
});
