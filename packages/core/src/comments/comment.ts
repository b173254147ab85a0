/**
 * Comments on articles. A new comment is `pending` and invisible to engagement; once approved
 * (by an admin or editor) it takes reactions, whose totals are stored on the comment.
 */
import { visibleTotals, type ReactionType } from '../reactions/reaction.js';
import { viewPerSnapshot, type SnapshotView } from '../shared/frozen-snapshots.js';

export const COMMENT_CONTENT_MAX = 5000;
export const COMMENT_AUTHOR_NAME_MAX = 100;

export type CommentStatus = 'pending' | 'approved';

export interface Comment {
  readonly id: string;
  readonly tenantId: string;
  readonly articleId: string;
  readonly content: string;
  /** The display name the commenter gave, or null. */
  readonly authorName: string | null;
  /** Who wrote it: a user id, else the guest id (kept, never shown: it identifies the guest's reactions). */
  readonly userId: string | null;
  readonly guestId: string | null;
  readonly status: CommentStatus;
  readonly likes: number;
  readonly dislikes: number;
  readonly approvedAt: Date | null;
  readonly approvedBy: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What the operations answer. `createdBy` is the user id, or null for a guest. */
export interface CommentView {
  readonly id: string;
  readonly articleId: string;
  readonly content: string;
  readonly authorName: string | null;
  readonly status: CommentStatus;
  readonly createdBy: string | null;
  readonly likes: number;
  readonly dislikes: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What callers receive of a comment: one shared frozen view per stored snapshot (`viewPerSnapshot`). */
export const toCommentView: SnapshotView<Comment, CommentView> = viewPerSnapshot((comment: Comment): CommentView => {
  const { id, articleId, content, authorName, status, userId, createdAt, updatedAt } = comment;
  return { id, articleId, content, authorName, status, createdBy: userId, ...visibleTotals(comment), createdAt, updatedAt };
});

/** The data of the reaction summary and of both comment reaction operations. */
export interface CommentReactionSummary {
  readonly commentId: string;
  readonly likes: number;
  readonly dislikes: number;
  /** The caller's own reaction (user, else `x-guest-id`), or null. */
  readonly userReaction: ReactionType | null;
}
