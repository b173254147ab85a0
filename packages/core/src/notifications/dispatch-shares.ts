/**
 * The sends a dispatcher has in flight, by the receiver they go to (a webhook, a notification
 * channel), so that one receiver holds at most `perReceiver` of the dispatcher's places while
 * others have jobs due (decision 0817). The claim is given the counts (`ClaimShare`); the dispatch
 * loop asks `heldBack()` after a pass that claimed less than it could.
 */

/** How a claim shares a dispatcher's places between receivers (decision 0817). */
export interface ClaimShare {
  /** Most jobs of one receiver in flight at once, those of `inFlight` included. */
  readonly perReceiver: number;
  /** The jobs the caller has in flight already, by receiver (a webhook id, a channel). */
  readonly inFlight: ReadonlyMap<string, number>;
}

export class DispatchShares {
  readonly #sends = new Map<string, Set<Promise<void>>>();

  constructor(private readonly perReceiver: number) {}

  /** What a claim is given: the share, and the sends in flight now. */
  share(): ClaimShare {
    return { perReceiver: this.perReceiver, inFlight: new Map([...this.#sends].map(([receiver, sends]) => [receiver, sends.size])) };
  }

  /** Counts the send against its receiver's share until it settles. */
  track<T>(receiver: string, send: Promise<T>): Promise<T> {
    const sends = this.#sends.get(receiver) ?? new Set<Promise<void>>();
    this.#sends.set(receiver, sends);
    const free = (): void => {
      sends.delete(place);
      if (sends.size === 0) this.#sends.delete(receiver);
    };
    const place = send.then(free, free);
    sends.add(place);
    return send;
  }

  /**
   * Settles when a send of a receiver that holds its whole share settles (its due jobs were
   * passed over); undefined when no receiver holds its whole share.
   */
  heldBack(): Promise<void> | undefined {
    const full = [...this.#sends.values()].filter((sends) => sends.size >= this.perReceiver);
    return full.length === 0 ? undefined : Promise.race(full.flatMap((sends) => [...sends]));
  }
}
