/**
 * PUT and DELETE /articles/comments/{commentId}/reaction: the article rules applied to an
 * approved comment. Order: malformed id → guest admission (`AdmitGuest`) → the reaction type → no
 * such approved comment → reactions disabled on its article (or the article's category or
 * sub-category) → change.
 */
import { ArticleReactionGate } from '../articles/article-reaction-gate.js';
import type { ArticleRepository, CategoryRepository } from '../articles/articles.ports.js';
import type { AdmitGuest } from '../guests/admit-guest.use-case.js';
import { requireActor } from '../guests/require-actor.js';
import { ReactionLedger } from '../reactions/reaction-ledger.js';
import { reactionTypeOf, type ReactionChoice } from '../reactions/reaction.js';
import type { ReactionRepository } from '../reactions/reactions.ports.js';
import { GUEST_ENGAGEMENT, type Access } from '../shared/access.js';
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { settleInput, type Deferred } from '../shared/deferred.js';
import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { wellFormedIdOr } from '../shared/input-rules.js';
import type { CommentReactionSummary } from './comment.js';
import type { CommentRepository } from './comments.ports.js';
import { requireTenantId } from '../tenancy/tenant.js';

export interface CommentReactionInput {
  readonly commentId: string;
  /** `{ type }` sets or switches, `null` removes; a guest's is read only once admitted (`Deferred`). */
  readonly reaction: Deferred<ReactionChoice | null>;
}

export class ReactToComment {
  static readonly access: Access = GUEST_ENGAGEMENT;
  readonly #gate: ArticleReactionGate;
  readonly #ledger: ReactionLedger;

  constructor(
    private readonly comments: CommentRepository,
    articles: ArticleRepository,
    categories: CategoryRepository,
    reactions: ReactionRepository,
    clock: Clock,
    private readonly admit: AdmitGuest,
  ) {
    this.#gate = new ArticleReactionGate(articles, categories);
    this.#ledger = new ReactionLedger(reactions, comments, 'comment', clock);
  }

  /** A choice sets or switches the caller's reaction; `null` removes it. Answers the summary after the change. */
  async execute(caller: Caller, input: CommentReactionInput): Promise<CommentReactionSummary> {
    requireTenantId(caller.tenantId);
    const id = wellFormedIdOr(input.commentId, ErrorCodes.INVALID_COMMENT_ID);
    await this.admit.execute(caller);
    const type = reactionTypeOf(await settleInput(input.reaction));
    const actor = requireActor(caller);
    const comment = await this.comments.findById(caller.tenantId, id);
    if (!comment || comment.status !== 'approved') throw notFound();
    const state = await this.#gate.stateOf(caller.tenantId, comment.articleId);
    if (state === 'missing') throw notFound();
    if (state === 'disabled') throw new DomainError(ErrorCodes.REACTIONS_DISABLED, 'Reactions are disabled for this article');
    const totals = await this.#ledger.change(caller.tenantId, id, actor, type, { likes: comment.likes, dislikes: comment.dislikes });
    if (!totals) throw notFound();
    return { commentId: id, ...totals, userReaction: type };
  }
}

const notFound = () => new DomainError(ErrorCodes.COMMENT_NOT_FOUND, 'Comment not found');
