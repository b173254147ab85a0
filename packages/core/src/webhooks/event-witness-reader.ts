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

/**
 * True when two events' witnesses announce the same state change of the same thing: a record
 * gone, a relation held or let go, a comment approved, an actor's reaction set to one type. Such
 * a witness reads the state, not a version, so the event a dead write staged is borne out just as
 * well by its retry's change, which announced it itself (decision 0821). A created record and an
 * update (its own `updatedAt`) are never the same change as another event's.
 */
export function announcesSameChange(a: EventWitness, b: EventWitness): boolean {
  switch (a.kind) {
    case 'deleted':
      return b.kind === 'deleted' && b.record === a.record && b.id === a.id;
    case 'relation':
      return (
        b.kind === 'relation' &&
        b.submissionId === a.submissionId &&
        b.fieldName === a.fieldName &&
        b.relatedId === a.relatedId &&
        (b.held !== false) === (a.held !== false)
      );
    case 'comment-approved':
      return b.kind === 'comment-approved' && b.id === a.id;
    case 'reaction':
      return b.kind === 'reaction' && b.articleId === a.articleId && b.actor === a.actor && b.type === a.type;
    default:
      return false;
  }
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

