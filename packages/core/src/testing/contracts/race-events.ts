/**
 * The webhook side of a race (CONTRACT §7): the race's core records every write's event with the
 * change, for two webhooks subscribed to all of them once the world is made; the race may delete
 * or disable the second, and run dispatch passes, while the writes go on. After the race every
 * staged event must have been confirmed or discarded with its change, and the dispatcher sends
 * what was confirmed: the first webhook gets every event once, the second the same unless it was
 * deleted or disabled, in which case nothing once the race is over (a pass during the race may
 * have sent it an event before, or while, it went), and a deleted one keeps no delivery. The race
 * contracts then hold the first webhook's events against the answers: each answered write has its
 * event once, and a refused write none.
 */
import { expect } from 'chai';
import type { Arbitrary } from 'fast-check';
import type { CoreStores } from '../../embedded/core-stores.js';
import type { Core } from '../../embedded/create-core.js';
import type { Caller } from '../../shared/caller.js';
import type { WebhookOptions } from '../../webhooks/webhook-parts.js';
import type { WebhookRequest } from '../../webhooks/webhooks.ports.js';
import { userCaller } from '../callers.js';
import type { CrashOperation } from './crash-points.js';
import { raceOperation, type FastCheck, type RaceOperation } from './drawn-races.js';

/** One delivered event: its type and `data`. */
export interface SentEvent {
  readonly type: string;
  readonly data: { readonly id?: string; readonly articleId?: string; readonly [key: string]: unknown };
}

const URLS = ['https://receiver.example/first', 'https://receiver.example/second'] as const;

export class RaceEvents {
  readonly #bodies: Record<string, string[]> = { [URLS[0]]: [], [URLS[1]]: [] };
  #admin: Caller | undefined;
  #second = '';
  /** What an answered operation did to the second webhook. */
  readonly #silenced = { deleted: false, disabled: false };

  /** `createCore`'s `webhooks` option: every URL allowed, every delivery answered 204 and kept. */
  readonly options: WebhookOptions = {
    sender: { send: async (request: WebhookRequest) => (this.#bodies[request.url]!.push(request.body), { statusCode: 204 }) },
    urlGuard: { isAllowed: async () => true },
  };

  /** Subscribes two webhooks to every event: called once the world is made, so only the race's writes count. */
  async subscribe(core: Core<CoreStores>, tenantId: string): Promise<void> {
    this.#admin = userCaller(tenantId, 'admin-1', 'admin');
    await core.webhooks!.create.execute(this.#admin, { url: URLS[0], events: ['*'] });
    this.#second = (await core.webhooks!.create.execute(this.#admin, { url: URLS[1], events: ['*'] })).id;
  }

  /** A race's operation: the second webhook deleted or disabled while the writes go on (it may be refused: deleted already). */
  async silence(core: Core<CoreStores>, how: 'delete' | 'disable'): Promise<void> {
    if (how === 'delete') await core.webhooks!.remove.execute(this.#admin!, { id: this.#second });
    else await core.webhooks!.update.execute(this.#admin!, { id: this.#second, changes: { enabled: false } });
    this.silenced(how);
  }

  /** Records that the second webhook was deleted or disabled (by an answer, or by a faulted run a retry found done). */
  silenced(how: 'delete' | 'disable'): void {
    this.#silenced[how === 'delete' ? 'deleted' : 'disabled'] = true;
  }

  /** A race's operation: one dispatch pass while the writes go on. */
  async dispatch(core: Core<CoreStores>): Promise<void> {
    await core.webhooks!.dispatch.execute();
  }

  /**
   * After a restart: one dispatch pass of each outbox, as a restarted service runs them. The
   * webhook pass settles the events a killed write left unconfirmed (the restarted clock is past
   * the settle delay); the notification pass enqueues the jobs of a submit killed before it
   * stored them (decision 0798).
   */
  async restarted(core: Core<CoreStores>): Promise<void> {
    await core.webhooks!.dispatch.execute();
    await core.notifications.dispatch.execute();
  }

  /** Once the race has settled: no event left unconfirmed, then every confirmed one sent; the first webhook's events. */
  async delivered(core: Core<CoreStores>): Promise<SentEvent[]> {
    const deliveries = core.stores.webhookDeliveries!;
    expect((await deliveries.countByStatus()).unconfirmed, 'events left unconfirmed by writes that answered or were refused').to.equal(0);
    const sentDuringRace = this.#bodies[URLS[1]]!.length;
    while ((await core.webhooks!.dispatch.execute()).claimed > 0);
    const { deleted, disabled } = this.#silenced;
    expect(await deliveries.countByStatus(), 'every confirmed event delivered').to.deep.include(deleted || disabled ? { pending: 0 } : { pending: 0, failed: 0 });
    const [first, second] = URLS.map((url) => this.#bodies[url]!.splice(0));
    if (deleted || disabled) expect(second!.slice(sentDuringRace), 'a deleted or disabled webhook receives nothing once the race is over').to.deep.equal([]);
    else expect([...second!].sort(), 'both webhooks receive every event').to.deep.equal([...first!].sort());
    if (deleted) expect(await deliveries.listByWebhook(this.#admin!.tenantId, this.#second, 1000), 'the deliveries of a deleted webhook').to.deep.equal([]);
    return first!.map((body) => JSON.parse(body) as SentEvent);
  }
}

/** The webhook operations a race may draw (the second webhook deleted or disabled, a dispatch pass); each answers `other`. */
export function webhookOperations<W extends { readonly core: Core<CoreStores>; readonly events: RaceEvents }, D>(fc: FastCheck, other: D): Arbitrary<RaceOperation<W, D>>[] {
  return [
    fc.constantFrom('delete' as const, 'disable' as const).map((how) =>
      raceOperation<W, D>(fc, `${how}Webhook(W2)`, async (w) => {
        await w.events.silence(w.core, how);
        return other;
      }),
    ),
    fc.constant(
      raceOperation<W, D>(fc, 'dispatchWebhooks', async (w) => {
        await w.events.dispatch(w.core);
        return other;
      }),
    ),
  ];
}

/**
 * The crash contracts' delete of the second webhook, once its log holds a delivered event:
 * `write` makes one, which is sent before the fault, and both webhooks' bodies are taken then, so
 * the family's check sees only what comes after. Sent again after a fault; found deleted, it
 * counts as done. The check then holds that a deleted webhook keeps no delivery.
 */
export function deletingSecondWebhook<W extends { readonly core: Core<CoreStores>; readonly events: RaceEvents }, D>(other: D, write: (world: W) => Promise<unknown>): CrashOperation<W, D> {
  return {
    label: 'deleteWebhook(W2)',
    prepare: async (w) => {
      await write(w);
      await w.events.delivered(w.core);
    },
    run: async (w) => (await w.events.silence(w.core, 'delete'), other),
    done: (w) => (w.events.silenced('delete'), other),
  };
}

/** Events as sorted `type id` lines, to compare with what the answers expect. */
export function eventLines(events: ReadonlyArray<Pick<SentEvent, 'type' | 'data'>>): string[] {
  return events.map(({ type, data }) => `${type} ${data.id ?? data.articleId}`).sort();
}
