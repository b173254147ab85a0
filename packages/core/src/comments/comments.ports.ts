import type { ReactionTotalsStore } from '../reactions/reactions.ports.js';
import type { PageQuery } from '../shared/page-cursor.js';
import { portToken, type PortToken } from '../shared/port-token.js';
import type { Comment, CommentStatus } from './comment.js';

/** A comment as an approval left it; `changed`: this call approved it (a `comment.approved` event). */
export interface CommentApproval {
  readonly comment: Comment;
  readonly changed: boolean;
}

/** Comments; their reaction totals are kept here too (see `ReactionTotalsStore`). */
export interface CommentRepository extends ReactionTotalsStore {
  insert(comment: Comment): Promise<void>;
  findById(tenantId: string, id: string): Promise<Comment | null>;
  /**
   * Marks the comment approved in one atomic step and returns it, with `changed` true only for
   * the call that approved it; approving it again changes nothing (the first approval's time and
   * approver stay). Null when no such comment.
   */
  approve(tenantId: string, id: string, approvedBy: string, at: Date): Promise<CommentApproval | null>;
  /**
   * Deletes the comment in one atomic step; true only for the call that deleted it. With
   * `expected`, only while its stored `updatedAt` is still that (compare-and-delete, `If-Match`).
   */
  delete(tenantId: string, id: string, expected?: Date): Promise<boolean>;
  /** Deletes every comment of the article (one `deleteMany`); returns how many. */
  deleteByArticle(tenantId: string, articleId: string): Promise<number>;
  /** One keyset page of an article's comments, of one status when `status` is given (§6.1). */
  listByArticle(tenantId: string, articleId: string, status: CommentStatus | undefined, page: PageQuery): Promise<Comment[]>;
}

export const CommentRepositoryToken: PortToken<CommentRepository> = portToken('CommentRepository');
