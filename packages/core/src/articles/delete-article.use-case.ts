/**
 * §6.4 `DELETE /articles/delete/{id}` (bearer admin or editor): the article, its comments and
 * every reaction on them. Reactions go before what they are on, comments before the article, the
 * article last, so a retry of an interrupted delete finishes it (docs/decisions/0763-delete-cascades.md).
 * With `If-Match`, one conditional write claims the article before anything goes, so of racing
 * writers holding the same version exactly one wins (docs/decisions/0765-atomic-if-match-on-deletes.md).
 */
import type { CommentRepository } from '../comments/comments.ports.js';
import { deletedEvent, NO_WEBHOOK_EVENTS, type WebhookEventRecorder } from '../webhooks/webhook-events.js';
import type { ReactionRepository } from '../reactions/reactions.ports.js';
import type { Caller } from '../shared/caller.js';
import { DomainError } from '../shared/domain-error.js';
import { checkIfMatch, claimedVersion, preconditionFailed, versionToMatch } from '../shared/entity-tag.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { wellFormedIdOr } from '../shared/input-rules.js';
import { requiresRoles } from '../shared/access.js';
import { requireRole } from '../shared/require-user.js';
import { toArticleView } from './article.js';
import type { ArticleRepository } from './articles.ports.js';

const BATCH = 500;

/** The record, by its id as the caller gave it (checked: a malformed one is refused). `ifMatch`: the `If-Match` condition, if any. */
export interface DeleteArticleInput {
  readonly id: string;
  readonly ifMatch?: string | undefined;
}

export class DeleteArticle {
  /** Who may call: the one declaration the HTTP routes, OpenAPI and docs/permissions.md follow. */
  static readonly access = requiresRoles('admin', 'editor');

  constructor(
    private readonly articles: ArticleRepository,
    private readonly comments: CommentRepository,
    private readonly reactions: ReactionRepository,
    private readonly events: WebhookEventRecorder = NO_WEBHOOK_EVENTS,
  ) {}

  async execute(caller: Caller, { id: articleId, ifMatch }: DeleteArticleInput): Promise<void> {
    requireRole(caller, DeleteArticle.access.roles);
    const { tenantId } = caller;
    const id = wellFormedIdOr(articleId, ErrorCodes.INVALID_ARTICLE_ID);
    const article = await this.articles.findById(tenantId, id);
    if (!article) throw notFound();
    checkIfMatch(ifMatch, () => toArticleView(article));
    const expected = versionToMatch(ifMatch, article);
    if (expected && !(await this.articles.update({ ...article, updatedAt: claimedVersion(article) }, expected))) throw preconditionFailed();
    // One `article.deleted`; its comments go with it without events of their own (decision 0783).
    await this.events.around(deletedEvent(caller, 'article.deleted', 'article', { id }), async () => {
      const removed: string[] = [];
      await this.#removeComments(tenantId, id, removed);
      await this.reactions.deleteByTargets(tenantId, 'article', [id]);
      const deleted = await this.articles.delete(tenantId, id);
      // A comment whose article check passed just before the article went may have landed, and
      // so may a reaction whose check passed just before its article or comment went: a second
      // pass takes them. A reaction that lands later finds nothing to count it and takes itself
      // back (`ReactionLedger`), and a comment finds no article (decision 0763).
      await this.#removeComments(tenantId, id, removed);
      await this.reactions.deleteByTargets(tenantId, 'article', [id]);
      for (let i = 0; i < removed.length; i += BATCH) await this.reactions.deleteByTargets(tenantId, 'comment', removed.slice(i, i + BATCH));
      if (!deleted) throw notFound();
      return { result: undefined, data: { id } };
    });
  }

  /** Removes the article's comments and their reactions, adding the comments' ids to `removed`. */
  async #removeComments(tenantId: string, articleId: string, removed: string[]): Promise<void> {
    for (let after = null; ; ) {
      const page = await this.comments.listByArticle(tenantId, articleId, undefined, { after, limit: BATCH, order: 'oldestFirst' });
      const ids = page.map((comment) => comment.id);
      if (ids.length > 0) await this.reactions.deleteByTargets(tenantId, 'comment', ids);
      removed.push(...ids);
      if (page.length < BATCH) break;
      after = page[page.length - 1]!;
    }
    await this.comments.deleteByArticle(tenantId, articleId);
  }
}

const notFound = () => new DomainError(ErrorCodes.ARTICLE_NOT_FOUND, 'Article not found');
