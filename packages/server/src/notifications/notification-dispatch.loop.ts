/**
 * Runs the notification dispatcher in the background of the service: one pass, then the next at
 * once when the pass filled a whole batch, else after the poll interval. A failing pass is logged
 * and the loop goes on; the process never dies of it. `stop()` waits for the pass in progress, so
 * the store is closed only after every claimed job has its outcome recorded.
 */
import type { DispatchReport, Logger } from '@cms/core';

export interface DispatchLoopOptions {
  readonly pollMs: number;
  /** A pass that claimed this many jobs may have left more due: go again without waiting. */
  readonly batchSize: number;
  /** Names the outbox in log lines (default `notification`; webhooks reuse this loop). */
  readonly label?: string;
}

export class NotificationDispatchLoop {
  #timer: NodeJS.Timeout | undefined;
  #pass: Promise<void> | undefined;
  #state: 'idle' | 'running' | 'stopped' = 'idle';

  constructor(
    private readonly dispatch: { execute(): Promise<DispatchReport> },
    private readonly options: DispatchLoopOptions,
    private readonly logger: Logger,
  ) {}

  /** Starts polling (the first pass right away). Calling it again does nothing. */
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
    this.#timer.unref();
  }

  async #runPass(): Promise<void> {
    let more = false;
    try {
      const report = await this.dispatch.execute();
      more = report.claimed >= this.options.batchSize;
    } catch (error) {
      this.logger.error(`${this.options.label ?? 'notification'} dispatch pass failed`, { error: error instanceof Error ? error.message : String(error) });
    }
    this.#pass = undefined;
    this.#schedule(more ? 0 : this.options.pollMs);
  }
}
