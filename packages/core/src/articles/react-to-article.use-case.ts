/**
 * PUT and DELETE /articles/{id}/reaction: sets, switches or removes the caller's own reaction.
 * Order: malformed id → guest admission (`AdmitGuest`: CAPTCHA, guest id, rate limit) → the
 * reaction type → no such article → reactions disabled → change. Answers the totals right after
 * this change.
 */
import { NO_WEBHOOK_EVENTS, type WebhookEventRecorder } from '../webhooks/webhook-events.js';
import { ReactionLedger } from '../reactions/reaction-ledger.js';
import { reactionTypeOf, type ReactionChoice } from '../reactions/reaction.js';
import type { ReactionRepository } from '../reactions/reactions.ports.js';
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { wellFormedIdOr } from '../shared/input-rules.js';
import type { AdmitGuest } from '../guests/admit-guest.use-case.js';
import { requireActor } from '../guests/require-actor.js';
import { GUEST_ENGAGEMENT, type Access } from '../shared/access.js';
import { settleInput, type Deferred } from '../shared/deferred.js';
import { ArticleReactionGate } from './article-reaction-gate.js';
import type { ArticleReactionTotals } from './article.js';
import type { ArticleRepository, CategoryRepository } from './articles.ports.js';
import { requireTenantId } from '../tenancy/tenant.js';

export interface ArticleReactionInput {
  readonly articleId: string;
  /** `{ type }` sets or switches, `null` removes; a guest's is read only once admitted (`Deferred`). */
  readonly reaction: Deferred<ReactionChoice | null>;
}

export class ReactToArticle {
  static readonly access: Access = GUEST_ENGAGEMENT;
  readonly #gate: ArticleReactionGate;
  readonly #ledger: ReactionLedger;

  constructor(
    articles: ArticleRepository,
    categories: CategoryRepository,
    reactions: ReactionRepository,
    clock: Clock,
    private readonly admit: AdmitGuest,
    private readonly events: WebhookEventRecorder = NO_WEBHOOK_EVENTS,
  ) {
    this.#gate = new ArticleReactionGate(articles, categories);
    this.#ledger = new ReactionLedger(reactions, articles, 'article', clock);
  }

  /** A choice sets or switches the caller's reaction; `null` removes it (no reaction: still fine). */
  async execute(caller: Caller, input: ArticleReactionInput): Promise<ArticleReactionTotals> {
    requireTenantId(caller.tenantId);
    const id = wellFormedIdOr(input.articleId, ErrorCodes.INVALID_ARTICLE_ID);
    await this.admit.execute(caller);
    const type = reactionTypeOf(await settleInput(input.reaction));
    const actor = requireActor(caller);
    const { state, totals: read } = await this.#gate.check(caller.tenantId, id);
    if (state === 'missing') throw notFound();
    if (state === 'disabled') throw new DomainError(ErrorCodes.REACTIONS_DISABLED, 'Reactions are disabled for this article');
    const witness = { kind: 'reaction', articleId: id, actor, type } as const;
    return this.events.around({ tenantId: caller.tenantId, type: 'article.reaction.changed', witness, trace: caller.trace }, async () => {
      const change = await this.#ledger.changeReporting(caller.tenantId, id, actor, type, read ?? undefined);
      if (!change.totals) throw notFound();
      const totals = { articleId: id, ...change.totals };
      return change.changed ? { result: totals, data: totals } : { result: totals };
    });
  }
}

const notFound = () => new DomainError(ErrorCodes.ARTICLE_NOT_FOUND, 'Article not found');
