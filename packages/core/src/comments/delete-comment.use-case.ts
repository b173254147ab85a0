/**
 * §6.4 `DELETE /articles/comments/{commentId}` (bearer admin or editor, moderation): the comment,
 * pending or approved, and its reactions (reactions first, so a retry finishes the job). With
 * `If-Match` the comment goes only if it is still the version checked (one compare-and-delete).
 * A comment changes only when approved: an approved one's version cannot move, and a pending one
 * has no reactions at the version checked. Its approval may land after the check and reactions
 * after that, which the compare-and-delete then refuses; so a pending comment's reactions are
 * not taken first, and a delete that loses that race has removed nothing
 * (docs/decisions/0765-atomic-if-match-on-deletes.md).
 */
import type { ReactionRepository } from '../reactions/reactions.ports.js';
import { deletedEvent, NO_WEBHOOK_EVENTS, type WebhookEventRecorder } from '../webhooks/webhook-events.js';
import type { Caller } from '../shared/caller.js';
import { DomainError } from '../shared/domain-error.js';
import { checkIfMatch, preconditionFailed, versionToMatch } from '../shared/entity-tag.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { wellFormedIdOr } from '../shared/input-rules.js';
import { requiresRoles } from '../shared/access.js';
import { requireRole } from '../shared/require-user.js';
import { toCommentView } from './comment.js';
import type { CommentRepository } from './comments.ports.js';

/** The record, by its id as the caller gave it (checked: a malformed one is refused). `ifMatch`: the `If-Match` condition, if any. */
export interface DeleteCommentInput {
  readonly id: string;
  readonly ifMatch?: string | undefined;
}

export class DeleteComment {
  /** Who may call: the one declaration the HTTP routes, OpenAPI and docs/permissions.md follow. */
  static readonly access = requiresRoles('admin', 'editor');

  constructor(
    private readonly comments: CommentRepository,
    private readonly reactions: ReactionRepository,
    private readonly events: WebhookEventRecorder = NO_WEBHOOK_EVENTS,
  ) {}

  async execute(caller: Caller, { id: commentId, ifMatch }: DeleteCommentInput): Promise<void> {
    requireRole(caller, DeleteComment.access.roles);
    const id = wellFormedIdOr(commentId, ErrorCodes.INVALID_COMMENT_ID);
    const comment = await this.comments.findById(caller.tenantId, id);
    if (!comment) throw notFound();
    checkIfMatch(ifMatch, () => toCommentView(comment));
    const data = { id, articleId: comment.articleId };
    const expected = versionToMatch(ifMatch, comment);
    await this.events.around(deletedEvent(caller, 'comment.deleted', 'comment', data), async () => {
      if (!expected || comment.status === 'approved') await this.reactions.deleteByTargets(caller.tenantId, 'comment', [id]);
      if (!(await this.comments.delete(caller.tenantId, id, expected))) throw expected ? preconditionFailed() : notFound();
      // A reaction whose comment check passed just before the comment went may have landed; one
      // that lands later finds no comment to count it and takes itself back (`ReactionLedger`).
      await this.reactions.deleteByTargets(caller.tenantId, 'comment', [id]);
      return { result: undefined, data };
    });
  }
}

const notFound = () => new DomainError(ErrorCodes.COMMENT_NOT_FOUND, 'Comment not found');
