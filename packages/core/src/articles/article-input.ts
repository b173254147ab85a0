/**
 * The editable fields of an article, checked the same way by create and update (one source):
 * the author exists, `categoryId` is a top-level category and `subCategoryId` one of its children.
 */
import type { AuthorRepository } from '../authors/authors.ports.js';
import { issuesError, validationError } from '../shared/domain-error.js';
import { optionalFlag, optionalId, optionalLongText, requiredText } from '../shared/input-rules.js';
import { ARTICLE_CONTENT_MAX, ARTICLE_TITLE_MAX, filedUnder, type Article } from './article.js';
import type { ArticleRepository, CategoryRepository } from './articles.ports.js';

export interface ArticleInput {
  readonly title?: unknown;
  readonly content?: unknown;
  readonly authorId?: unknown;
  readonly categoryId?: unknown;
  readonly subCategoryId?: unknown;
  readonly reactionsEnabled?: unknown;
}

export const ARTICLE_INPUT_KEYS = ['title', 'content', 'authorId', 'categoryId', 'subCategoryId', 'reactionsEnabled'] as const;

export interface ArticleReferences {
  readonly categories: CategoryRepository;
  readonly authors: AuthorRepository;
}

export async function articleFields(input: ArticleInput, references: ArticleReferences, tenantId: string): Promise<Pick<Article, (typeof ARTICLE_INPUT_KEYS)[number]>> {
  const title = requiredText(input.title, 'title', ARTICLE_TITLE_MAX);
  const content = optionalLongText(input.content, 'content', ARTICLE_CONTENT_MAX, '');
  const authorId = optionalId(input.authorId, 'authorId');
  const categoryId = optionalId(input.categoryId, 'categoryId');
  const subCategoryId = optionalId(input.subCategoryId, 'subCategoryId');
  const reactionsEnabled = optionalFlag(input.reactionsEnabled, 'reactionsEnabled', true);
  if (authorId !== null && !(await references.authors.findById(tenantId, authorId))) {
    throw validationError('authorId', 'must be an existing author');
  }
  await checkCategories(references.categories, tenantId, categoryId, subCategoryId);
  return { title, content, authorId, categoryId, subCategoryId, reactionsEnabled };
}

/**
 * After an article's write: an author or category it names may have been deleted, or a category
 * moved, between the check and the write (an update may even write back what a delete or a move
 * had just changed). Those changed only the articles that named them then, so this one is
 * changed now as they would have changed it (decision 0763): detached from what is gone, filed
 * where a moved category now is. Answers the article as it now stands.
 */
export async function settleArticleReferences(articles: ArticleRepository, references: ArticleReferences, article: Article): Promise<Article> {
  const { tenantId, authorId, categoryId, subCategoryId } = article;
  let settled = article;
  if (authorId !== null && !(await references.authors.findById(tenantId, authorId))) {
    await articles.clearAuthor(tenantId, authorId);
    settled = { ...settled, authorId: null };
  }
  if (categoryId === null) return settled; // a sub-category is only ever named with its category
  // The sub-category first: one moved away from a deleted category is followed, not cleared with it.
  const named = subCategoryId === null ? [categoryId] : [subCategoryId, categoryId];
  const found = await references.categories.findByIds(tenantId, named);
  let refiled = false;
  for (const id of named) {
    const category = found.find((candidate) => candidate.id === id);
    if (!category) {
      await articles.clearCategory(tenantId, id);
      settled = { ...settled, categoryId: settled.categoryId === id ? null : settled.categoryId, subCategoryId: settled.subCategoryId === id ? null : settled.subCategoryId };
    } else if (category.parentId !== (id === categoryId ? null : categoryId)) {
      await articles.refileCategory(tenantId, id, category.parentId);
      refiled = true;
    }
  }
  return refiled ? ((await articles.findById(tenantId, article.id)) ?? settled) : settled;
}

/**
 * Where a category move files an article that names the category (`filedUnder`, as
 * `refileCategory` does), by where its most specific category is now. For an article a move
 * left where the category was: its process killed between the move and the refile.
 */
export async function filingAfterMoves(categories: CategoryRepository, tenantId: string, article: Pick<Article, 'categoryId' | 'subCategoryId'>): Promise<Pick<Article, 'categoryId' | 'subCategoryId'>> {
  const named = article.subCategoryId ?? article.categoryId;
  const [category] = named === null ? [] : await categories.findByIds(tenantId, [named]);
  if (!category) return { categoryId: article.categoryId, subCategoryId: article.subCategoryId };
  return filedUnder(category.id, category.parentId);
}

async function checkCategories(categories: CategoryRepository, tenantId: string, categoryId: string | null, subCategoryId: string | null): Promise<void> {
  if (categoryId === null) {
    if (subCategoryId !== null) throw issuesError([{ path: 'categoryId', message: 'is required with subCategoryId', related: 'subCategoryId' }]);
    return;
  }
  const found = await categories.findByIds(tenantId, subCategoryId ? [categoryId, subCategoryId] : [categoryId]);
  const category = found.find((c) => c.id === categoryId);
  if (!category) throw validationError('categoryId', 'must be an existing category');
  if (category.parentId !== null) throw validationError('categoryId', 'must be a top-level category');
  if (subCategoryId === null) return;
  const sub = found.find((c) => c.id === subCategoryId);
  if (!sub) throw validationError('subCategoryId', 'must be an existing category');
  if (sub.parentId !== categoryId) throw issuesError([{ path: 'subCategoryId', message: 'must be a sub-category of categoryId', related: 'categoryId' }]);
}
