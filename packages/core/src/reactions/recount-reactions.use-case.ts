/**
 * Maintenance: recounts every article's and comment's reaction totals from the reaction
 * records, reports any drift between stored and counted totals and, when asked, repairs it.
 * A repair adds the difference with the same atomic increment reactions use, so a reaction that
 * lands during the repair is not overwritten; run it in a quiet period for an exact result.
 */
import type { TenantRepository } from '../tenancy/tenancy.ports.js';
import { isZeroDelta, subtractTotals, type ReactionTargetKind, type ReactionTotals } from './reaction.js';
import type { ReactionRepository, ReactionTotalsStore } from './reactions.ports.js';

export interface RecountOptions {
  /** Add each drift's difference to the stored totals. Default false: report only. */
  readonly repair?: boolean;
  /** Only this tenant; default every tenant. */
  readonly tenantId?: string;
  /** Targets read per page. */
  readonly pageSize?: number;
}

export interface ReactionDrift {
  readonly tenantId: string;
  readonly targetKind: ReactionTargetKind;
  readonly targetId: string;
  readonly stored: ReactionTotals;
  readonly counted: ReactionTotals;
}

export interface RecountReport {
  readonly tenants: number;
  readonly checked: Readonly<Record<ReactionTargetKind, number>>;
  readonly drifts: readonly ReactionDrift[];
  /** How many drifts were repaired (0 unless `repair`). */
  readonly repaired: number;
}

export class RecountReactions {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly reactions: ReactionRepository,
    private readonly articles: ReactionTotalsStore,
    private readonly comments: ReactionTotalsStore,
  ) {}

  async execute(options: RecountOptions = {}): Promise<RecountReport> {
    const pageSize = Math.max(1, options.pageSize ?? 500);
    const tenantIds = options.tenantId ? [options.tenantId] : (await this.tenants.list()).map((tenant) => tenant.id);
    const checked = { article: 0, comment: 0 };
    const drifts: ReactionDrift[] = [];
    let repaired = 0;
    for (const tenantId of tenantIds) {
      for (const [targetKind, store] of [['article', this.articles], ['comment', this.comments]] as const) {
        let afterId: string | null = null;
        for (;;) {
          const page = await store.listTotals(tenantId, afterId, pageSize);
          if (page.length === 0) break;
          afterId = page[page.length - 1]!.id;
          checked[targetKind] += page.length;
          const counts = await this.reactions.tally(tenantId, targetKind, page.map((target) => target.id));
          for (const target of page) {
            const counted = counts.get(target.id) ?? { likes: 0, dislikes: 0 };
            const stored = { likes: target.likes, dislikes: target.dislikes };
            const difference = subtractTotals(counted, stored);
            if (isZeroDelta(difference)) continue;
            drifts.push({ tenantId, targetKind, targetId: target.id, stored, counted });
            if (options.repair && (await store.incrementTotals(tenantId, target.id, difference))) repaired += 1;
          }
          if (page.length < pageSize) break;
        }
      }
    }
    return { tenants: tenantIds.length, checked, drifts, repaired };
  }
}
