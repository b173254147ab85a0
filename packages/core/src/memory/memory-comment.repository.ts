/** In-memory comments with their stored reaction totals. */
import type { Comment } from '../comments/comment.js';
import type { CommentRepository } from '../comments/comments.ports.js';
import { MemoryReactionTotals } from './memory-reaction-totals.js';
import { tenantKey } from './tenant-key.js';

export class MemoryCommentRepository extends MemoryReactionTotals<Comment> implements CommentRepository {
  async insert(comment: Comment): Promise<void> {
    if (!this.records.insert(tenantKey(comment.tenantId, comment.id), comment)) throw new Error(`duplicate comment id ${comment.id}`);
  }

  async findById(tenantId: string, id: string): Promise<Comment | null> {
    return this.records.get(tenantKey(tenantId, id)) ?? null;
  }

  async approve(tenantId: string, id: string, approvedBy: string, at: Date): Promise<Comment | null> {
    const key = tenantKey(tenantId, id);
    const comment = this.records.get(key);
    if (!comment || comment.status === 'approved') return comment ?? null;
    return this.records.update(key, (current) => ({ ...current, status: 'approved' as const, approvedAt: at, approvedBy, updatedAt: at }))!;
  }
}
