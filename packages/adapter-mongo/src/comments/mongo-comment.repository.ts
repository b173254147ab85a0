/**
 * Comments on MongoDB, with their reaction totals stored on the document (see
 * mongo-reaction-totals.ts); `articleId` is an ObjectId reference. Approval is one conditional
 * `findOneAndUpdate` (only a pending comment changes), so racing approvals keep the first
 * approval's time and approver; a call that changed nothing then reads the comment to answer.
 */
import type { Comment, CommentApproval, CommentRepository, CommentStatus, PageQuery, ReactionTotals, TargetTotals } from '@cms/core';
import type { Filter, ObjectId } from 'mongodb';
import { MongoReactionTotals } from '../reactions/mongo-reaction-totals.js';
import { deleteById } from '../storage/conditional-delete.js';
import { isDuplicateKeyError } from '../storage/duplicate-key.js';
import { findPage } from '../storage/keyset-query.js';
import { Collections } from '../storage/mongo-collections.js';
import type { MongoCollection, MongoDatabase } from '../storage/mongo-database.js';
import { fromObjectId, parseObjectId, toObjectId } from '../storage/object-ids.js';

interface CommentDocument {
  _id: ObjectId;
  tenantId: string;
  articleId: ObjectId;
  content: string;
  authorName: string | null;
  userId: string | null;
  /** Kept to identify the guest's own reactions; never shown. */
  guestId: string | null;
  status: CommentStatus;
  likes: number;
  dislikes: number;
  approvedAt: Date | null;
  approvedBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export class MongoCommentRepository implements CommentRepository {
  readonly #comments: MongoCollection<CommentDocument>;
  readonly #totals: MongoReactionTotals;

  constructor(db: MongoDatabase) {
    this.#comments = db.collection<CommentDocument>(Collections.comments);
    this.#totals = new MongoReactionTotals(db, Collections.comments);
  }

  async insert(comment: Comment): Promise<void> {
    try {
      await this.#comments.insertOne(toDocument(comment));
    } catch (error) {
      if (isDuplicateKeyError(error)) throw new Error(`duplicate comment id ${comment.id}`);
      throw error;
    }
  }

  async findById(tenantId: string, id: string): Promise<Comment | null> {
    const _id = parseObjectId(id);
    if (!_id) return null;
    const document = await this.#comments.findOne({ _id, tenantId });
    return document ? toComment(document) : null;
  }

  async approve(tenantId: string, id: string, approvedBy: string, at: Date): Promise<CommentApproval | null> {
    const _id = parseObjectId(id);
    if (!_id) return null;
    const approved = await this.#comments.findOneAndUpdate(
      { _id, tenantId, status: 'pending' },
      { $set: { status: 'approved', approvedAt: at, approvedBy, updatedAt: at } },
      { returnDocument: 'after' },
    );
    if (approved) return { comment: toComment(approved), changed: true };
    // Already approved (or absent): nothing to change, only to answer.
    const current = await this.#comments.findOne({ _id, tenantId });
    return current ? { comment: toComment(current), changed: false } : null;
  }

  /** One `findOneAndDelete`; with `expected`, `updatedAt` is in its filter (compare-and-delete). */
  async delete(tenantId: string, id: string, expected?: Date): Promise<boolean> {
    return deleteById(this.#comments, tenantId, id, expected);
  }

  /** Served by `tenant_article_created`. */
  async deleteByArticle(tenantId: string, articleId: string): Promise<number> {
    const article = parseObjectId(articleId);
    if (!article) return 0;
    return (await this.#comments.deleteMany({ tenantId, articleId: article })).deletedCount;
  }

  /** Served by `tenant_article_created`, or `tenant_article_status_created` with a status. */
  async listByArticle(tenantId: string, articleId: string, status: CommentStatus | undefined, page: PageQuery): Promise<Comment[]> {
    const article = parseObjectId(articleId);
    if (!article) return [];
    const query: Filter<CommentDocument> = { tenantId, articleId: article };
    if (status !== undefined) query.status = status;
    return (await findPage(this.#comments, query, page)).map(toComment);
  }

  incrementTotals(tenantId: string, id: string, delta: ReactionTotals): Promise<ReactionTotals | null> {
    return this.#totals.incrementTotals(tenantId, id, delta);
  }

  listTotals(tenantId: string, afterId: string | null, limit: number): Promise<TargetTotals[]> {
    return this.#totals.listTotals(tenantId, afterId, limit);
  }
}

function toDocument(comment: Comment): CommentDocument {
  return {
    _id: toObjectId(comment.id),
    tenantId: comment.tenantId,
    articleId: toObjectId(comment.articleId),
    content: comment.content,
    authorName: comment.authorName,
    userId: comment.userId,
    guestId: comment.guestId,
    status: comment.status,
    likes: comment.likes,
    dislikes: comment.dislikes,
    approvedAt: comment.approvedAt,
    approvedBy: comment.approvedBy,
    createdAt: comment.createdAt,
    updatedAt: comment.updatedAt,
  };
}

function toComment(document: CommentDocument): Comment {
  return {
    id: fromObjectId(document._id),
    tenantId: document.tenantId,
    articleId: fromObjectId(document.articleId),
    content: document.content,
    authorName: document.authorName ?? null,
    userId: document.userId ?? null,
    guestId: document.guestId ?? null,
    status: document.status,
    likes: document.likes,
    dislikes: document.dislikes,
    approvedAt: document.approvedAt ?? null,
    approvedBy: document.approvedBy ?? null,
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
  };
}
