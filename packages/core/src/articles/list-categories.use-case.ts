/** §6.1 `GET /categories/list`: the tenant's categories, newest first; `parentId` an id or `root`. */
import type { Caller } from '../shared/caller.js';
import { idFilter } from '../shared/list-filters.js';
import { listScope, readPage, type PageCursors, type PageInput } from '../shared/page-cursor.js';
import type { CategoryListFilter, CategoryRepository } from './articles.ports.js';
import { toCategoryView, type CategoryView } from './category.js';

export interface ListCategoriesInput extends PageInput {
  readonly parentId?: unknown;
}

export class ListCategories {
  constructor(
    private readonly categories: CategoryRepository,
    private readonly cursors: PageCursors,
  ) {}

  async execute(caller: Caller, input: ListCategoriesInput): Promise<{ categories: CategoryView[]; nextCursor: string | null }> {
    const filter: CategoryListFilter = input.parentId === 'root' ? { parentId: null } : parentFilter(idFilter(input.parentId, 'parentId'));
    const scope = listScope('categories', caller.tenantId, { parentId: filter.parentId === undefined ? null : (filter.parentId ?? 'root') });
    const page = await readPage(this.cursors, scope, input, (query) => this.categories.list(caller.tenantId, filter, query));
    return { categories: page.items.map(toCategoryView), nextCursor: page.nextCursor };
  }
}

const parentFilter = (parentId: string | undefined): CategoryListFilter => (parentId === undefined ? {} : { parentId });
