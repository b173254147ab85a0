/** In-memory comments with their stored reaction totals. */
import type { Comment } from '../comments/comment.js';
import type { CommentRepository } from '../comments/comments.ports.js';
import { copyRecord } from './copy-record.js';
import { MemoryReactionTotals } from './memory-reaction-totals.js';
import { tenantKey } from './tenant-key.js';

type StoredComment = { -readonly [K in keyof Comment]: Comment[K] };

export class MemoryCommentRepository extends MemoryReactionTotals<StoredComment> implements CommentRepository {
  readonly #comments: Map<string, StoredComment>;

  constructor() {
    const comments = new Map<string, StoredComment>();
    super(comments);
    this.#comments = comments;
  }

  async insert(comment: Comment): Promise<void> {
    const key = tenantKey(comment.tenantId, comment.id);
    if (this.#comments.has(key)) throw new Error(`duplicate comment id ${comment.id}`);
    this.#comments.set(key, copyRecord(comment));
  }

  async findById(tenantId: string, id: string): Promise<Comment | null> {
    const comment = this.#comments.get(tenantKey(tenantId, id));
    return comment ? copyRecord(comment) : null;
  }

  async approve(tenantId: string, id: string, approvedBy: string, at: Date): Promise<Comment | null> {
    const comment = this.#comments.get(tenantKey(tenantId, id));
    if (!comment) return null;
    if (comment.status !== 'approved') {
      comment.status = 'approved';
      comment.approvedAt = at;
      comment.approvedBy = approvedBy;
      comment.updatedAt = at;
    }
    return copyRecord(comment);
  }
}
