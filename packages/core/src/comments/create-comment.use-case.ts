/**
 * POST /articles/{id}/comments: a user, or a guest admitted by `AdmitGuest`, comments on an
 * article of the tenant. The comment waits, `pending`, for approval. Order: malformed id →
 * guest admission → the input → no such article.
 */
import type { ArticleRepository } from '../articles/articles.ports.js';
import type { AdmitGuest } from '../guests/admit-guest.use-case.js';
import { requireActor } from '../guests/require-actor.js';
import { NO_WEBHOOK_EVENTS, type WebhookEventRecorder } from '../webhooks/webhook-events.js';
import { GUEST_ENGAGEMENT, type Access } from '../shared/access.js';
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { settleInput, type Deferred } from '../shared/deferred.js';
import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { newId } from '../shared/ids.js';
import { optionalText, requiredText, wellFormedIdOr } from '../shared/input-rules.js';
import { COMMENT_AUTHOR_NAME_MAX, COMMENT_CONTENT_MAX, toCommentView, type Comment, type CommentView } from './comment.js';
import type { CommentRepository } from './comments.ports.js';
import { requireKnownKeys } from '../shared/shape-rules.js';
import { requireTenantId } from '../tenancy/tenant.js';

export interface CreateCommentInput {
  readonly content?: unknown;
  readonly authorName?: unknown;
}

const COMMENT_KEYS: ReadonlySet<string> = new Set(['content', 'authorName']);

export interface CommentOnArticleInput {
  readonly articleId: string;
  /** The comment as sent; a guest's is read only once admitted (`Deferred`). Paths `comment.content`, `comment.authorName`. */
  readonly comment: Deferred<CreateCommentInput>;
}

export class CreateComment {
  static readonly access: Access = GUEST_ENGAGEMENT;

  constructor(
    private readonly comments: CommentRepository,
    private readonly articles: ArticleRepository,
    private readonly clock: Clock,
    private readonly admit: AdmitGuest,
    private readonly events: WebhookEventRecorder = NO_WEBHOOK_EVENTS,
  ) {}

  async execute(caller: Caller, { articleId, comment: given }: CommentOnArticleInput): Promise<CommentView> {
    requireTenantId(caller.tenantId);
    const id = wellFormedIdOr(articleId, ErrorCodes.INVALID_ARTICLE_ID);
    await this.admit.execute(caller);
    requireActor(caller);
    const input = await settleInput(given);
    requireKnownKeys(input, 'comment', COMMENT_KEYS);
    const content = requiredText(input.content, 'comment.content', COMMENT_CONTENT_MAX);
    const authorName = optionalText(input.authorName, 'comment.authorName', COMMENT_AUTHOR_NAME_MAX);
    if (!(await this.articles.findById(caller.tenantId, id))) throw articleNotFound();
    const now = this.clock.now();
    const comment: Comment = {
      id: newId(now, caller.tenantId),
      tenantId: caller.tenantId,
      articleId: id,
      content,
      authorName,
      userId: caller.user?.id ?? null,
      guestId: caller.user ? null : (caller.guest?.id ?? null),
      status: 'pending',
      likes: 0,
      dislikes: 0,
      approvedAt: null,
      approvedBy: null,
      createdAt: now,
      updatedAt: now,
    };
    return this.events.around({ tenantId: comment.tenantId, type: 'comment.created', witness: { kind: 'comment', id: comment.id }, trace: caller.trace }, async () => {
      await this.comments.insert(comment);
      // The article may have been deleted between the check and the insert; its delete took only
      // the comments that existed then, so this one takes itself back (decision 0763).
      if (!(await this.articles.findById(comment.tenantId, id))) {
        await this.comments.delete(comment.tenantId, comment.id);
        throw articleNotFound();
      }
      const view = toCommentView.fresh(comment);
      return { result: view, data: view };
    });
  }
}

const articleNotFound = () => new DomainError(ErrorCodes.ARTICLE_NOT_FOUND, 'Article not found');
