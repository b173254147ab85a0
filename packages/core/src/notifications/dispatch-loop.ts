/**
 * Runs an outbox dispatcher (`DispatchNotifications`, `DispatchWebhooks`) in the background of
 * whatever process embeds core: one pass, then the next at once when the pass filled a whole
 * batch, else after the interval. A failing pass is logged and the loop goes on; the process never
 * dies of it. `stop()` waits for the pass in progress, so a store is closed only after every
 * claimed job has its outcome recorded. The HTTP service runs its dispatchers on this loop too.
 */
import { errorText } from '../shared/error-text.js';
import type { Logger } from '../shared/logger.js';
import type { DispatchReport } from './dispatch-notifications.use-case.js';

export interface DispatchLoopOptions {
  /** Wait between passes when the last one left nothing due, in milliseconds. */
  readonly intervalMs: number;
  /** A pass that claimed this many jobs may have left more due: go again without waiting. */
  readonly batchSize: number;
  /** Names the outbox in log lines (default `notification`). */
  readonly label?: string;
}

/** One dispatch pass: what the loop runs. */
export interface DispatchPass {
  execute(): Promise<Pick<DispatchReport, 'claimed'>>;
}

export class DispatchLoop {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #pass: Promise<void> | undefined;
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

  /** Stops polling and resolves once the pass in progress, if any, has finished. */
  async stop(): Promise<void> {
    this.#state = 'stopped';
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#pass;
  }

  #schedule(delayMs: number): void {
    if (this.#state !== 'running') return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#pass = this.#runPass();
    }, delayMs);
    // Shutdown is explicit (stop); a pending poll alone must not keep the process alive.
    this.#timer.unref?.();
  }

  async #runPass(): Promise<void> {
    let more = false;
    try {
      const report = await this.dispatch.execute();
      more = report.claimed >= this.options.batchSize;
    } catch (error) {
      this.logger.error(`${this.options.label ?? 'notification'} dispatch pass failed`, { error: errorText(error) });
    }
    this.#pass = undefined;
    this.#schedule(more ? 0 : this.options.intervalMs);
  }
}
