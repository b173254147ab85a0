/**
 * §6.3 `PATCH /articles/update/{id}` (bearer admin, editor or author): the fields of create under
 * its rules (the author exists, a sub-category belongs to the category); `likes`/`dislikes` are
 * not writable and an update never changes them. An author or category deleted or moved while the
 * update is written is detached from the article or followed, as its delete or move does with the
 * others (decision 0763).
 */
import type { AuthorRepository } from '../authors/authors.ports.js';
import { NO_WEBHOOK_EVENTS, updatedEvent, type WebhookEventRecorder } from '../webhooks/webhook-events.js';
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { conditionalUpdate, patched, patchOf, type UpdateInput } from '../shared/conditional-update.js';
import { DomainError, isDomainError } from '../shared/domain-error.js';
import { nextUpdatedAt } from '../shared/entity-tag.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { wellFormedIdOr } from '../shared/input-rules.js';
import { requiresRoles } from '../shared/access.js';
import { requireRole } from '../shared/require-user.js';
import { toArticleView, type Article, type ArticleView } from './article.js';
import { ARTICLE_INPUT_KEYS, articleFields, filingAfterMoves, settleArticleReferences, type ArticleReferences } from './article-input.js';
import type { ArticleRepository, CategoryRepository } from './articles.ports.js';
import { requireTenantId } from '../tenancy/tenant.js';

export class UpdateArticle {
  /** Who may call: the one declaration the HTTP routes, OpenAPI and docs/permissions.md follow. */
  static readonly access = requiresRoles('admin', 'editor', 'author');

  constructor(
    private readonly articles: ArticleRepository,
    private readonly categories: CategoryRepository,
    private readonly authors: AuthorRepository,
    private readonly clock: Clock,
    private readonly events: WebhookEventRecorder = NO_WEBHOOK_EVENTS,
  ) {}

  async execute(caller: Caller, request: UpdateInput): Promise<ArticleView> {
    requireTenantId(caller.tenantId);
    const { id: articleId, changes: body } = request;
    requireRole(caller, UpdateArticle.access.roles);
    const id = wellFormedIdOr(articleId, ErrorCodes.INVALID_ARTICLE_ID);
    const references = { categories: this.categories, authors: this.authors };
    let stored: ArticleView | undefined;
    const article = await conditionalUpdate(body, request, {
      key: `article\0${caller.tenantId}\0${id}`,
      read: () => this.articles.findById(caller.tenantId, id),
      notFound: () => new DomainError(ErrorCodes.ARTICLE_NOT_FOUND, 'Article not found'),
      view: toArticleView,
      build: async (current) => {
        const patch = patchOf(body, ARTICLE_INPUT_KEYS);
        let fields: Awaited<ReturnType<typeof articleFields>>;
        try {
          fields = await articleFields(patched(current, patch), references, caller.tenantId);
        } catch (error) {
          fields = await this.#refiled(current, patch, error, references, caller.tenantId);
        }
        return { ...current, ...fields, updatedAt: nextUpdatedAt(current.updatedAt, this.clock.now()) };
      },
      // The totals are whatever the store holds now: read back after the write, for the answer and the event.
      write: (next, expected) =>
        this.events.around(updatedEvent(caller, 'article.updated', 'article', id, next.updatedAt), async () => {
          if (!(await this.articles.update(next, expected))) return { result: false };
          await settleArticleReferences(this.articles, references, next);
          stored = toArticleView.fresh((await this.articles.findById(caller.tenantId, id)) ?? next);
          return { result: true, data: stored };
        }),
    });
    return stored ?? toArticleView((await this.articles.findById(caller.tenantId, id)) ?? article);
  }

  /**
   * When create's rules refused the merged record: a stored filing the caller did not name may
   * no longer hold. A category move whose process was killed before its refile left the article
   * where the category was (decision 0763); refusing the update for it would blame the caller,
   * so the article is filed where the move files it, and the rules run again. Any other refusal
   * stands.
   */
  async #refiled(current: Article, patch: Readonly<Record<string, unknown>>, refusal: unknown, references: ArticleReferences, tenantId: string) {
    const namesFiling = patch.categoryId !== undefined || patch.subCategoryId !== undefined;
    if (namesFiling || !isDomainError(refusal) || refusal.code !== ErrorCodes.VALIDATION_FAILED) throw refusal;
    const filed = { ...current, ...(await filingAfterMoves(this.categories, tenantId, current)) };
    return articleFields(patched(filed, patch), references, tenantId);
  }
}
