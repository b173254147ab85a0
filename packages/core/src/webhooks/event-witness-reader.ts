/**
 * Settles an unconfirmed event from the store: did the change it announces happen? Then the
 * event's `data` is the record as stored now; otherwise there is nothing to send.
 */
import { toArticleView } from '../articles/article.js';
import type { ArticleRepository } from '../articles/articles.ports.js';
import { toCommentView } from '../comments/comment.js';
import type { CommentRepository } from '../comments/comments.ports.js';
import type { FormRepository, SubmissionRepository } from '../forms/forms.ports.js';
import { holdsRelated } from '../forms/relation-holders.js';
import { submissionView } from '../forms/submission.js';
import { visibleTotals } from '../reactions/reaction.js';
import type { ReactionRepository } from '../reactions/reactions.ports.js';
import type { EventWitness, WitnessRecord } from './webhooks.ports.js';

export interface WitnessStores {
  readonly forms: FormRepository;
  readonly submissions: SubmissionRepository;
  readonly articles: ArticleRepository;
  readonly comments: CommentRepository;
  readonly reactions: ReactionRepository;
}

export class EventWitnessReader {
  constructor(private readonly stores: WitnessStores) {}

  /** The event's data when the change is in the store, else undefined. */
  async dataIfHappened(tenantId: string, witness: EventWitness): Promise<unknown> {
    const { submissions, articles, comments, reactions } = this.stores;
    switch (witness.kind) {
      case 'form':
      case 'submission':
      case 'article':
      case 'comment':
        return this.#view(tenantId, witness.kind, witness.id);
      case 'updated': {
        const view = (await this.#view(tenantId, witness.record, witness.id)) as { updatedAt?: Date } | undefined;
        return view?.updatedAt?.getTime() === new Date(witness.updatedAt).getTime() ? view : undefined;
      }
      case 'deleted':
        return (await this.#view(tenantId, witness.record, witness.id)) === undefined ? { ...witness.data } : undefined;
      case 'relation': {
        const submission = await submissions.findById(tenantId, witness.submissionId);
        const held = witness.held !== false;
        if (!submission || holdsRelated(submission, witness.fieldName, witness.relatedId) !== held) return undefined;
        // A connect whose related submission was erased meanwhile is taken back (decision 0766): an id held dangling announces nothing.
        if (held && (await submissions.findById(tenantId, witness.relatedId)) === null) return undefined;
        return submissionView(submission);
      }
      case 'comment-approved': {
        const comment = await comments.findById(tenantId, witness.id);
        if (!comment || comment.status !== 'approved') return undefined;
        return toCommentView(comment);
      }
      case 'reaction': {
        const key = { tenantId, targetKind: 'article' as const, targetId: witness.articleId, actor: witness.actor };
        if ((await reactions.findReaction(key)) !== witness.type) return undefined;
        const article = await articles.findById(tenantId, witness.articleId);
        return article ? { articleId: article.id, ...visibleTotals(article) } : undefined;
      }
    }
  }

  /** The record as the routes answer it, or undefined when it does not exist. */
  async #view(tenantId: string, record: WitnessRecord, id: string): Promise<object | undefined> {
    const { forms, submissions, articles, comments } = this.stores;
    if (record === 'form') return (await forms.findById(tenantId, id)) ?? undefined;
    if (record === 'submission') {
      const submission = await submissions.findById(tenantId, id);
      return submission ? submissionView(submission) : undefined;
    }
    if (record === 'article') {
      const article = await articles.findById(tenantId, id);
      return article ? toArticleView(article) : undefined;
    }
    const comment = await comments.findById(tenantId, id);
    return comment ? toCommentView(comment) : undefined;
  }
}

