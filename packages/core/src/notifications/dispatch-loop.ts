/**
 * Runs an outbox dispatcher (`DispatchNotifications`, `DispatchWebhooks`) in the background of
 * whatever process embeds core. A pass claims due jobs and starts sending them; the loop does not
 * wait for the sends, only keeps at most `batchSize` of them in flight, and a pass claims no more
 * than the free places. So a receiver that hangs until its timeout holds one place, not the next
 * pass (decision 0815). A pass that filled the places it had is followed by the next as soon as a
 * place is free; one that found less waits the interval, or less when it passed over the due jobs
 * of a receiver that holds its whole share of places and one of that receiver's sends settles
 * first (decision 0817). A failing pass is logged and the loop goes on; the process never dies of
 * it. `stop()` waits for the pass in progress and every send in flight, so a store is closed only
 * after every claimed job has its outcome recorded. The HTTP service runs its dispatchers on this
 * loop too.
 */
import { errorText } from '../shared/error-text.js';
import type { Logger } from '../shared/logger.js';

export interface DispatchLoopOptions {
  /** Wait between passes when the last one left nothing due, in milliseconds. */
  readonly intervalMs: number;
  /** Most jobs in flight at once, and so the most one pass claims. */
  readonly batchSize: number;
  /** Names the outbox in log lines (default `notification`). */
  readonly label?: string;
}

/** What the loop runs. */
export interface DispatchPass {
  /**
   * Claims up to `limit` due jobs and starts sending each; resolves once they are claimed, with one
   * promise per job that settles once its outcome is recorded.
   */
  claimAndSend(limit: number): Promise<ReadonlyArray<Promise<unknown>>>;
  /**
   * Optional. Asked after a pass that claimed fewer jobs than its places: a promise that settles
   * when due jobs the pass passed over may be claimed (a receiver holding its whole share of places
   * finished a send, decision 0817), or undefined when it passed over none. The loop then runs the
   * next pass when it settles, if that comes before the interval.
   */
  heldBack?(): Promise<unknown> | undefined;
}

export class DispatchLoop {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #pass: Promise<void> | undefined;
  readonly #inFlight = new Set<Promise<void>>();
  /** A pass is due but every place was taken: the next send to settle starts it. */
  #awaitingPlace = false;
  #state: 'idle' | 'running' | 'stopped' = 'idle';

  constructor(
    private readonly dispatch: DispatchPass,
    private readonly options: DispatchLoopOptions,
    private readonly logger: Logger,
  ) {
    if (!(options.intervalMs >= 0) || !(options.batchSize >= 1)) {
      throw new RangeError('DispatchLoop needs intervalMs >= 0 and batchSize >= 1');
    }
  }

  /** Starts polling (the first pass right away). Calling it again, or after stop(), does nothing. */
  start(): void {
    if (this.#state !== 'idle') return;
    this.#state = 'running';
    this.#schedule(0);
  }

  /** Stops polling and resolves once the pass in progress, if any, and every send in flight have finished. */
  async stop(): Promise<void> {
    this.#state = 'stopped';
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#pass;
    await Promise.all(this.#inFlight);
  }

  #schedule(delayMs: number): void {
    if (this.#state !== 'running') return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const free = this.options.batchSize - this.#inFlight.size;
      if (free > 0) this.#pass = this.#runPass(free);
      else this.#awaitingPlace = true;
    }, delayMs);
    // Shutdown is explicit (stop); a pending poll alone must not keep the process alive.
    this.#timer.unref?.();
  }

  async #runPass(limit: number): Promise<void> {
    let more = false;
    let heldBack: Promise<unknown> | undefined;
    try {
      const sends = await this.dispatch.claimAndSend(limit);
      for (const send of sends) this.#track(send);
      more = sends.length >= limit;
      if (!more) heldBack = this.dispatch.heldBack?.();
    } catch (error) {
      this.logger.error(`${this.#label} dispatch pass failed`, { error: errorText(error) });
    }
    this.#pass = undefined;
    this.#schedule(more ? 0 : this.options.intervalMs);
    if (heldBack) this.#passWhen(heldBack);
  }

  /** Runs the next pass as soon as `ready` settles, unless a pass ran (or the loop stopped) in between. */
  #passWhen(ready: Promise<unknown>): void {
    const waiting = this.#timer;
    const early = (): void => {
      if (this.#timer !== waiting || waiting === undefined) return;
      clearTimeout(waiting);
      this.#timer = undefined;
      this.#schedule(0);
    };
    ready.then(early, early);
  }

  #track(send: Promise<unknown>): void {
    const settled = send.then(
      () => undefined,
      (error: unknown) => this.logger.error(`${this.#label} send failed without an outcome`, { error: errorText(error) }),
    );
    const tracked = settled.finally(() => {
      this.#inFlight.delete(tracked);
      if (!this.#awaitingPlace) return;
      this.#awaitingPlace = false;
      this.#schedule(0);
    });
    this.#inFlight.add(tracked);
  }

  get #label(): string {
    return this.options.label ?? 'notification';
  }
}
