/**
 * The sends a dispatcher has in flight, by the receiver they go to (a webhook, a notification
 * channel) and, for webhooks, by the tenant they belong to, so that one receiver holds at most
 * `perReceiver` of the dispatcher's places while others have jobs due (decision 0817), and one
 * tenant at most `perTenant`, however many receivers it has (decision 0823). The claim is given
 * the counts (`ClaimShare`); the dispatch loop asks `heldBack()` after a pass that claimed less
 * than it could.
 */

/** How a claim shares a dispatcher's places between receivers and tenants (decisions 0817, 0823). */
export interface ClaimShare {
  /** Most jobs of one receiver in flight at once, those of `inFlight` included. */
  readonly perReceiver: number;
  /** The jobs the caller has in flight already, by receiver (a webhook id, a channel). */
  readonly inFlight: ReadonlyMap<string, number>;
  /** Most jobs of one tenant in flight at once, those of `inFlightByTenant` included (webhooks only). */
  readonly perTenant?: number;
  /** The jobs the caller has in flight already, by tenant id; given with `perTenant`. */
  readonly inFlightByTenant?: ReadonlyMap<string, number>;
}

export class DispatchShares {
  readonly #byReceiver = new SendsInFlight();
  readonly #byTenant = new SendsInFlight();

  /** `perTenant` undefined: no share by tenant (notifications: their receivers are the service's own). */
  constructor(
    private readonly perReceiver: number,
    private readonly perTenant?: number,
  ) {}

  /** What a claim is given: the shares, and the sends in flight now. */
  share(): ClaimShare {
    const receivers = { perReceiver: this.perReceiver, inFlight: this.#byReceiver.counts() };
    return this.perTenant === undefined ? receivers : { ...receivers, perTenant: this.perTenant, inFlightByTenant: this.#byTenant.counts() };
  }

  /** Counts the send against its receiver's share, and its tenant's when given, until it settles. */
  track<T>(receiver: string, send: Promise<T>, tenant?: string): Promise<T> {
    this.#byReceiver.add(receiver, send);
    if (this.perTenant !== undefined && tenant !== undefined) this.#byTenant.add(tenant, send);
    return send;
  }

  /**
   * Settles when a send of a receiver or a tenant that holds its whole share settles (its due jobs
   * were passed over); undefined when none holds its whole share.
   */
  heldBack(): Promise<void> | undefined {
    const full = [...this.#byReceiver.fullSets(this.perReceiver), ...this.#byTenant.fullSets(this.perTenant ?? Infinity)];
    return full.length === 0 ? undefined : Promise.race(full.flatMap((sends) => [...sends]));
  }
}

/** Sends in flight by key, each until it settles. */
class SendsInFlight {
  readonly #sends = new Map<string, Set<Promise<void>>>();

  add(key: string, send: Promise<unknown>): void {
    const sends = this.#sends.get(key) ?? new Set<Promise<void>>();
    this.#sends.set(key, sends);
    const free = (): void => {
      sends.delete(place);
      if (sends.size === 0) this.#sends.delete(key);
    };
    const place = send.then(free, free);
    sends.add(place);
  }

  counts(): Map<string, number> {
    return new Map([...this.#sends].map(([key, sends]) => [key, sends.size]));
  }

  fullSets(share: number): Array<Set<Promise<void>>> {
    return [...this.#sends.values()].filter((sends) => sends.size >= share);
  }
}
