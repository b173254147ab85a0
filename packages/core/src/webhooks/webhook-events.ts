/**
 * Writes an event with the change that caused it (docs/decisions/0780-webhook-events-staged-then-confirmed.md).
 * Order: stage the event's deliveries as `unconfirmed` → make the change → confirm them with the
 * body. A change refused with a domain error discards them, and so does a change that changed
 * nothing (a repeated approval, a reaction set to what it was). Any other failure (the write may
 * have landed), a process that dies, or a confirmation that fails leaves them unconfirmed: the
 * dispatcher later settles the event from the store by its witness. So the caller gets its 2xx only when the event exists, and no event is sent for a
 * change that did not happen. A tenant with no subscribed webhook pays one indexed read.
 */
import { errorText } from '../shared/error-text.js';
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { isDomainError } from '../shared/domain-error.js';
import { newId } from '../shared/ids.js';
import type { Logger } from '../shared/logger.js';
import { portToken, type PortToken } from '../shared/port-token.js';
import type { TraceContext } from '../shared/trace-context.js';
import type { EventWitness, WebhookDeliveryOutbox, WebhookRepository, WitnessRecord } from './webhooks.ports.js';
import type { WebhookEventType } from './webhook.js';

/** What the change reports: its result for the caller, and the event's `data` (absent: nothing changed, no event). */
export interface ChangeReport<T> {
  readonly result: T;
  readonly data?: unknown;
}

export interface EventSpec {
  readonly tenantId: string;
  readonly type: WebhookEventType;
  readonly witness: EventWitness;
  /** The request's trace: deliveries join it (CONTRACT §8). */
  readonly trace?: TraceContext | undefined;
}

/** The recorder as the use cases see it; `NO_WEBHOOK_EVENTS` runs the change alone. */
export interface WebhookEventRecorder {
  around<T>(spec: EventSpec, change: () => Promise<ChangeReport<T>>): Promise<T>;
}

export const NO_WEBHOOK_EVENTS: WebhookEventRecorder = {
  around: async (_spec, change) => (await change()).result,
};

/** Who caused an event: the tenant it belongs to, and the trace its deliveries join. */
type EventSource = Pick<Caller, 'tenantId' | 'trace'>;

/** The event of a §6.3 update: confirmed only while the record still carries the `updatedAt` this update writes. */
export function updatedEvent(source: EventSource, type: WebhookEventType, record: WitnessRecord, id: string, updatedAt: Date): EventSpec {
  return { tenantId: source.tenantId, type, witness: { kind: 'updated', record, id, updatedAt }, trace: source.trace };
}

/** The event of a §6.4 delete: `data` (`{id}`, `{id, formId}`, `{id, articleId}`) is known before the change; confirmed only once the record is gone. */
export function deletedEvent(source: EventSource, type: WebhookEventType, record: WitnessRecord, data: { readonly id: string } & Readonly<Record<string, string>>): EventSpec {
  return { tenantId: source.tenantId, type, witness: { kind: 'deleted', record, id: data.id, data }, trace: source.trace };
}

/**
 * The body of every delivery of an event (Standard Webhooks: type, timestamp, data). `data` is
 * the record as the API answers it (§7's table: "the form" is §2.3's record, `tenantId`
 * included), so a receiver can hand it to the same code that reads the API's answers.
 */
export function eventPayload(type: string, at: Date, data: unknown): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

export class WebhookEvents implements WebhookEventRecorder {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly outbox: WebhookDeliveryOutbox,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async around<T>(spec: EventSpec, change: () => Promise<ChangeReport<T>>): Promise<T> {
    const subscribers = await this.webhooks.listSubscribed(spec.tenantId, spec.type);
    if (subscribers.length === 0) return (await change()).result;
    const staged = this.clock.now();
    const eventId = newId(staged, spec.tenantId);
    const { tenantId, type, witness } = spec;
    await this.outbox.stage(
      subscribers.map((webhook) => ({ tenantId, webhookId: webhook.id, eventId, type, witness, trace: spec.trace ?? null })),
      staged,
    );
    let report: ChangeReport<T>;
    try {
      report = await change();
    } catch (error) {
      // A refusal changed nothing. Any other failure (a lost acknowledgement, an outage) may
      // have landed: the event stays unconfirmed and is settled from the store.
      if (isDomainError(error)) await this.#discard(tenantId, eventId);
      throw error;
    }
    if (report.data === undefined) {
      await this.#discard(tenantId, eventId);
      return report.result;
    }
    const now = this.clock.now();
    try {
      await this.outbox.confirm(tenantId, eventId, eventPayload(type, now, report.data), now);
    } catch (error) {
      // The change happened: the event stays unconfirmed and the dispatcher settles it later.
      this.logger.warn('webhook event left unconfirmed; it will be settled from the store', { tenantId, eventId, type, error: errorText(error) });
    }
    return report.result;
  }

  async #discard(tenantId: string, eventId: string): Promise<void> {
    try {
      await this.outbox.discard(tenantId, eventId);
    } catch (error) {
      // Left unconfirmed: settling finds no change behind it and drops it.
      this.logger.warn('webhook event could not be discarded; it will be settled from the store', { tenantId, eventId, error: errorText(error) });
    }
  }
}

export const WebhookEventRecorderToken: PortToken<WebhookEventRecorder> = portToken('WebhookEventRecorder');
