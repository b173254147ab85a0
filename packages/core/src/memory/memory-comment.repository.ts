/** In-memory comments with their stored reaction totals. */
import type { Comment, CommentStatus } from '../comments/comment.js';
import type { CommentRepository } from '../comments/comments.ports.js';
import type { PageQuery } from '../shared/page-cursor.js';
import { frozenCopy, frozenDate } from './copy-record.js';
import { collectPage, KeysetIndex } from './keyset-index.js';
import { MemoryReactionTotals } from './memory-reaction-totals.js';
import { tenantKey } from './tenant-key.js';

export class MemoryCommentRepository extends MemoryReactionTotals<Comment> implements CommentRepository {
  readonly #comments: Map<string, Comment>;
  /** (tenant, article) → its comments in list order. */
  readonly #byArticle = new KeysetIndex();

  constructor() {
    const comments = new Map<string, Comment>();
    super(comments);
    this.#comments = comments;
  }

  async insert(comment: Comment): Promise<void> {
    const key = tenantKey(comment.tenantId, comment.id);
    if (this.#comments.has(key)) throw new Error(`duplicate comment id ${comment.id}`);
    this.#comments.set(key, frozenCopy(comment));
    this.#byArticle.add(tenantKey(comment.tenantId, comment.articleId), comment, key);
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const key = tenantKey(tenantId, id);
    const comment = this.#comments.get(key);
    if (!comment) return false;
    this.#comments.delete(key);
    this.#byArticle.remove(tenantKey(tenantId, comment.articleId), comment);
    return true;
  }

  async deleteByArticle(tenantId: string, articleId: string): Promise<number> {
    const group = tenantKey(tenantId, articleId);
    const keys = [...this.#byArticle.oldestFirst(group, null)];
    for (const key of keys) {
      const comment = this.#comments.get(key);
      this.#comments.delete(key);
      if (comment) this.#byArticle.remove(group, comment);
    }
    return keys.length;
  }

  async listByArticle(tenantId: string, articleId: string, status: CommentStatus | undefined, page: PageQuery): Promise<Comment[]> {
    const keep = (comment: Comment) => status === undefined || comment.status === status;
    return collectPage(this.#byArticle.keysFor(tenantKey(tenantId, articleId), page), (key) => this.#comments.get(key), page, keep);
  }

  async findById(tenantId: string, id: string): Promise<Comment | null> {
    return this.#comments.get(tenantKey(tenantId, id)) ?? null;
  }

  async approve(tenantId: string, id: string, approvedBy: string, at: Date): Promise<Comment | null> {
    const key = tenantKey(tenantId, id);
    const comment = this.#comments.get(key);
    if (!comment || comment.status === 'approved') return comment ?? null;
    const when = frozenDate(at);
    const approved = Object.freeze({ ...comment, status: 'approved' as const, approvedAt: when, approvedBy, updatedAt: when });
    this.#comments.set(key, approved);
    return approved;
  }
}
