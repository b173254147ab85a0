/**
 * GET /articles/comments/{commentId}/reactionSummary: an approved comment's stored totals (one
 * lookup) and the caller's own reaction — the user's, else the `x-guest-id` guest's (no CAPTCHA
 * needed to read), else null.
 */
import type { ReactionRepository } from '../reactions/reactions.ports.js';
import { actorKey, type Caller } from '../shared/caller.js';
import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { wellFormedIdOr } from '../shared/input-rules.js';
import { visibleTotals } from '../reactions/reaction.js';
import type { CommentReactionSummary } from './comment.js';
import type { CommentRepository } from './comments.ports.js';

/** The record, by its id as the caller gave it (checked: a malformed one is refused). */
export interface CommentReactionSummaryInput {
  readonly id: string;
}

export class GetCommentReactionSummary {
  constructor(
    private readonly comments: CommentRepository,
    private readonly reactions: ReactionRepository,
  ) {}

  async execute(caller: Caller, { id: commentId }: CommentReactionSummaryInput): Promise<CommentReactionSummary> {
    const id = wellFormedIdOr(commentId, ErrorCodes.INVALID_COMMENT_ID);
    const comment = await this.comments.findById(caller.tenantId, id);
    if (!comment || comment.status !== 'approved') throw new DomainError(ErrorCodes.COMMENT_NOT_FOUND, 'Comment not found');
    const actor = actorKey(caller);
    const userReaction = actor ? await this.reactions.findReaction({ tenantId: caller.tenantId, targetKind: 'comment', targetId: id, actor }) : null;
    return { commentId: id, ...visibleTotals(comment), userReaction };
  }
}
