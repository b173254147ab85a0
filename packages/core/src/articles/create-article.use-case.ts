/**
 * Creates an article (bearer token, admin, editor or author) with zero reaction totals. Every
 * reference must exist in the tenant: the author, a top-level `categoryId`, and a
 * `subCategoryId` that is a child of `categoryId`; anything else is a validation error. One that
 * is deleted or moved while the article is written is detached from it or followed, as its delete
 * or move does with the others.
 */
import type { AuthorRepository } from '../authors/authors.ports.js';
import { NO_WEBHOOK_EVENTS, type WebhookEventRecorder } from '../webhooks/webhook-events.js';
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { newId } from '../shared/ids.js';
import { requiresRoles } from '../shared/access.js';
import { requireRole } from '../shared/require-user.js';
import { toArticleView, type Article, type ArticleView } from './article.js';
import { ARTICLE_INPUT_KEYS, articleFields, settleArticleReferences, type ArticleInput } from './article-input.js';
import type { ArticleRepository, CategoryRepository } from './articles.ports.js';
import { requireKnownKeys } from '../shared/shape-rules.js';
import { requireTenantId } from '../tenancy/tenant.js';

export type CreateArticleInput = ArticleInput;

const ARTICLE_KEYS: ReadonlySet<string> = new Set(ARTICLE_INPUT_KEYS);

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
    requireTenantId(caller.tenantId);
    requireRole(caller, CreateArticle.access.roles);
    requireKnownKeys(input, '', ARTICLE_KEYS);
    const tenantId = caller.tenantId;
    const references = { categories: this.categories, authors: this.authors };
    const fields = await articleFields(input, references, tenantId);
    const now = this.clock.now();
    const article: Article = {
      id: newId(now, tenantId),
      tenantId,
      ...fields,
      likes: 0,
      dislikes: 0,
      createdAt: now,
      updatedAt: now,
    };
    return this.events.around({ tenantId, type: 'article.created', witness: { kind: 'article', id: article.id }, trace: caller.trace }, async () => {
      await this.articles.insert(article);
      const view = toArticleView.fresh(await settleArticleReferences(this.articles, references, article));
      return { result: view, data: view };
    });
  }
}
