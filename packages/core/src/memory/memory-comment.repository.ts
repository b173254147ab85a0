/**
 * In-memory comments with their stored reaction totals. Each article's comments have a list
 * order, and so have its comments of each status (as MongoDB's `tenant_article_status_created`
 * index): a page of an article's approved or pending comments reads only those, however many of
 * the other status the article has.
 */
import type { Comment, CommentStatus } from '../comments/comment.js';
import type { CommentApproval, CommentRepository } from '../comments/comments.ports.js';
import type { PageQuery } from '../shared/page-cursor.js';
import { collectPage, KeysetIndex } from './keyset-index.js';
import { MemoryReactionTotals } from './memory-reaction-totals.js';
import { rowOf, stillAt, type RowSlot } from './snapshot-table.js';
import { tenantKey } from './tenant-key.js';

export class MemoryCommentRepository extends MemoryReactionTotals<Comment> implements CommentRepository {
  /** (tenant, article) → its comments in list order. */
  readonly #byArticle = new KeysetIndex<RowSlot<Comment>>();
  /** (tenant, article, status) → its comments of that status in list order. */
  readonly #byStatus = new KeysetIndex<RowSlot<Comment>>();

  async insert(comment: Comment): Promise<void> {
    const key = tenantKey(comment.tenantId, comment.id);
    const slot = this.records.insertSlot(key, comment);
    if (!slot) throw new Error(`duplicate comment id ${comment.id}`);
    this.#byArticle.add(tenantKey(comment.tenantId, comment.articleId), comment, slot);
    this.#byStatus.add(statusGroup(comment, comment.status), comment, slot);
  }

  async delete(tenantId: string, id: string, expected?: Date): Promise<boolean> {
    const key = tenantKey(tenantId, id);
    const comment = this.records.deleteIf(key, (current) => stillAt(current, expected));
    if (!comment) return false;
    this.#byArticle.remove(tenantKey(tenantId, comment.articleId), comment);
    this.#byStatus.remove(statusGroup(comment, comment.status), comment);
    return true;
  }

  async deleteByArticle(tenantId: string, articleId: string): Promise<number> {
    const group = tenantKey(tenantId, articleId);
    // The article's order and its two status orders go whole: nothing of them is read.
    const slots = this.#byArticle.take(group);
    for (const status of COMMENT_STATUSES) this.#byStatus.take(tenantKey(group, status));
    for (const { key } of slots) this.records.delete(key);
    return slots.length;
  }

  async listByArticle(tenantId: string, articleId: string, status: CommentStatus | undefined, page: PageQuery): Promise<Comment[]> {
    const group = tenantKey(tenantId, articleId);
    if (status === undefined) return collectPage(this.#byArticle.itemsFor(group, page), rowOf, page);
    return collectPage(this.#byStatus.itemsFor(tenantKey(group, status), page), rowOf, page);
  }

  async findById(tenantId: string, id: string): Promise<Comment | null> {
    return this.records.get(tenantKey(tenantId, id)) ?? null;
  }

  async approve(tenantId: string, id: string, approvedBy: string, at: Date): Promise<CommentApproval | null> {
    const key = tenantKey(tenantId, id);
    const comment = this.records.get(key);
    if (!comment) return null;
    if (comment.status === 'approved') return { comment, changed: false };
    const approved = this.records.update(key, (current) => ({ ...current, status: 'approved' as const, approvedAt: at, approvedBy, updatedAt: at }))!;
    this.#byStatus.remove(statusGroup(comment, comment.status), comment);
    this.#byStatus.add(statusGroup(comment, 'approved'), comment, this.records.slot(key)!);
    return { comment: approved, changed: true };
  }
}

const COMMENT_STATUSES: readonly CommentStatus[] = ['pending', 'approved'];

/** The group of an article's comments of one status. */
const statusGroup = ({ tenantId, articleId }: Comment, status: CommentStatus): string => tenantKey(tenantKey(tenantId, articleId), status);
