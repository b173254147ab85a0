/**
 * Settles an unconfirmed event from the store: did the change it announces happen? Then the
 * event's `data` is the record as stored now; otherwise there is nothing to send.
 */
import { toArticleView } from '../articles/article.js';
import type { ArticleRepository } from '../articles/articles.ports.js';
import { toCommentView } from '../comments/comment.js';
import type { CommentRepository } from '../comments/comments.ports.js';
import type { FormRepository, SubmissionRepository } from '../forms/forms.ports.js';
import { submissionView, type Submission } from '../forms/submission.js';
import { visibleTotals } from '../reactions/reaction.js';
import type { ReactionRepository } from '../reactions/reactions.ports.js';
import type { EventWitness } from './webhooks.ports.js';

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
    const { forms, submissions, articles, comments, reactions } = this.stores;
    switch (witness.kind) {
      case 'form':
        return (await forms.findById(tenantId, witness.id)) ?? undefined;
      case 'submission': {
        const submission = await submissions.findById(tenantId, witness.id);
        return submission ? submissionView(submission) : undefined;
      }
      case 'relation': {
        const submission = await submissions.findById(tenantId, witness.submissionId);
        return submission && holds(submission, witness.fieldName, witness.relatedId) ? submissionView(submission) : undefined;
      }
      case 'article': {
        const article = await articles.findById(tenantId, witness.id);
        return article ? toArticleView(article) : undefined;
      }
      case 'comment':
      case 'comment-approved': {
        const comment = await comments.findById(tenantId, witness.id);
        if (!comment || (witness.kind === 'comment-approved' && comment.status !== 'approved')) return undefined;
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
}

function holds(submission: Submission, fieldName: string, relatedId: string): boolean {
  const value = Object.hasOwn(submission.relations, fieldName) ? submission.relations[fieldName] : undefined;
  return Array.isArray(value) ? value.includes(relatedId) : value === relatedId;
}
