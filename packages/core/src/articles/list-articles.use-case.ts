/** §6.1 `GET /articles/list`: the tenant's articles, newest first, by author and/or category (or sub-category). */
import type { Caller } from '../shared/caller.js';
import { dropAbsent, idFilter, scopeText } from '../shared/list-filters.js';
import { listScope, readPage, type PageCursors, type PageInput } from '../shared/page-cursor.js';
import { toArticleView, type ArticleView } from './article.js';
import type { ArticleRepository } from './articles.ports.js';

export interface ListArticlesInput extends PageInput {
  readonly authorId?: unknown;
  readonly categoryId?: unknown;
}

export class ListArticles {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly cursors: PageCursors,
  ) {}

  async execute(caller: Caller, input: ListArticlesInput): Promise<{ articles: ArticleView[]; nextCursor: string | null }> {
    const filter = { authorId: idFilter(input.authorId, 'authorId'), categoryId: idFilter(input.categoryId, 'categoryId') };
    const scope = listScope('articles', caller.tenantId, { authorId: scopeText(filter.authorId), categoryId: scopeText(filter.categoryId) });
    const page = await readPage(this.cursors, scope, input, (query) => this.articles.list(caller.tenantId, dropAbsent(filter), query));
    return { articles: page.items.map(toArticleView), nextCursor: page.nextCursor };
  }
}
