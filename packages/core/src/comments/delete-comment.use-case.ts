/**
 * §6.4 `DELETE /articles/comments/{commentId}` (bearer admin or editor, moderation): the comment,
 * pending or approved, and its reactions (reactions first, so a retry finishes the job).
 */
import type { ReactionRepository } from '../reactions/reactions.ports.js';
import type { Caller } from '../shared/caller.js';
import { DomainError } from '../shared/domain-error.js';
import { checkIfMatch } from '../shared/entity-tag.js';
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
  ) {}

  async execute(caller: Caller, { id: commentId, ifMatch }: DeleteCommentInput): Promise<void> {
    requireRole(caller, DeleteComment.access.roles);
    const id = wellFormedIdOr(commentId, ErrorCodes.INVALID_COMMENT_ID);
    const comment = await this.comments.findById(caller.tenantId, id);
    if (!comment) throw notFound();
    checkIfMatch(ifMatch, toCommentView(comment));
    await this.reactions.deleteByTargets(caller.tenantId, 'comment', [id]);
    if (!(await this.comments.delete(caller.tenantId, id))) throw notFound();
  }
}

const notFound = () => new DomainError(ErrorCodes.COMMENT_NOT_FOUND, 'Comment not found');
