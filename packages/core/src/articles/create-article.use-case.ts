/**
 * Creates an article (bearer token, admin, editor or author) with zero reaction totals. Every
 * reference must exist in the tenant: the author, a top-level `categoryId`, and a
 * `subCategoryId` that is a child of `categoryId`; anything else is a validation error.
 */
import type { AuthorRepository } from '../authors/authors.ports.js';
import { NO_WEBHOOK_EVENTS, type WebhookEventRecorder } from '../webhooks/webhook-events.js';
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { validationError } from '../shared/domain-error.js';
import { newId } from '../shared/ids.js';
import { optionalFlag, optionalId, optionalLongText, requiredText } from '../shared/input-rules.js';
import { requiresRoles } from '../shared/access.js';
import { requireRole } from '../shared/require-user.js';
import { ARTICLE_CONTENT_MAX, ARTICLE_TITLE_MAX, toArticleView, type Article, type ArticleView } from './article.js';
import type { ArticleRepository, CategoryRepository } from './articles.ports.js';

export interface CreateArticleInput {
  readonly title?: unknown;
  readonly content?: unknown;
  readonly authorId?: unknown;
  readonly categoryId?: unknown;
  readonly subCategoryId?: unknown;
  readonly reactionsEnabled?: unknown;
}

export class CreateArticle {
  /** Who may call: the one declaration the HTTP routes, OpenAPI and docs/permissions.md follow. */
  static readonly access = requiresRoles('admin', 'editor', 'author');

  constructor(
    private readonly articles: ArticleRepository,
    private readonly categories: CategoryRepository,
    private readonly authors: AuthorRepository,
    private readonly clock: Clock,
    private readonly events: WebhookEventRecorder = NO_WEBHOOK_EVENTS,
  ) {}

  async execute(caller: Caller, input: CreateArticleInput): Promise<ArticleView> {
    requireRole(caller, CreateArticle.access.roles);
    const title = requiredText(input.title, 'body.title', ARTICLE_TITLE_MAX);
    const content = optionalLongText(input.content, 'body.content', ARTICLE_CONTENT_MAX, '');
    const authorId = optionalId(input.authorId, 'body.authorId');
    const categoryId = optionalId(input.categoryId, 'body.categoryId');
    const subCategoryId = optionalId(input.subCategoryId, 'body.subCategoryId');
    const reactionsEnabled = optionalFlag(input.reactionsEnabled, 'body.reactionsEnabled', true);
    const tenantId = caller.tenantId;

    if (authorId !== null && !(await this.authors.findById(tenantId, authorId))) {
      throw validationError('body.authorId', 'must be an existing author');
    }
    await this.#checkCategories(tenantId, categoryId, subCategoryId);

    const now = this.clock.now();
    const article: Article = {
      id: newId(now),
      tenantId,
      title,
      content,
      authorId,
      categoryId,
      subCategoryId,
      reactionsEnabled,
      likes: 0,
      dislikes: 0,
      createdAt: now,
      updatedAt: now,
    };
    return this.events.around({ tenantId, type: 'article.created', witness: { kind: 'article', id: article.id }, trace: caller.trace }, async () => {
      const view = await this.#insert(article);
      return { result: view, data: view };
    });
  }

  async #insert(article: Article): Promise<ArticleView> {
    const { tenantId, authorId } = article;
    await this.articles.insert(article);
    // The author may have been deleted between the check and the insert; its deletion cleared
    // only the articles that existed then, so detach this one as the deletion would have.
    if (authorId !== null && !(await this.authors.findById(tenantId, authorId))) {
      await this.articles.clearAuthor(tenantId, authorId);
      return toArticleView({ ...article, authorId: null });
    }
    return toArticleView(article);
  }

  async #checkCategories(tenantId: string, categoryId: string | null, subCategoryId: string | null): Promise<void> {
    if (categoryId === null) {
      if (subCategoryId !== null) throw validationError('body.categoryId', 'is required with body.subCategoryId');
      return;
    }
    const found = await this.categories.findByIds(tenantId, subCategoryId ? [categoryId, subCategoryId] : [categoryId]);
    const category = found.find((c) => c.id === categoryId);
    if (!category) throw validationError('body.categoryId', 'must be an existing category');
    if (category.parentId !== null) throw validationError('body.categoryId', 'must be a top-level category');
    if (subCategoryId === null) return;
    const sub = found.find((c) => c.id === subCategoryId);
    if (!sub) throw validationError('body.subCategoryId', 'must be an existing category');
    if (sub.parentId !== categoryId) throw validationError('body.subCategoryId', 'must be a sub-category of body.categoryId');
  }
}
