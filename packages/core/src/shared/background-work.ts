/**
 * Work a use case starts and does not await: the notification enqueue a submit starts before it
 * answers. By default it just runs. A host that shuts down gracefully passes a `TrackedWork` and
 * waits for `settled()` before it closes the store, so such work is not cut off halfway
 * (decision 0206).
 */
export interface BackgroundWork {
  /**
   * Starts `task` on a later tick. The caller handles (logs) the task's own failures: one that
   * escapes is dropped here rather than left to become an unhandled rejection, which ends the process.
   */
  start(task: () => Promise<void>): void;
}

export const UNTRACKED_WORK: BackgroundWork = {
  start(task) {
    Promise.resolve()
      .then(task)
      .catch(() => undefined);
  },
};

/** Background work it keeps count of, for a shutdown to wait on. */
export class TrackedWork implements BackgroundWork {
  readonly #running = new Set<Promise<void>>();

  start(task: () => Promise<void>): void {
    const running: Promise<void> = Promise.resolve()
      .then(task)
      .catch(() => undefined)
      .finally(() => this.#running.delete(running));
    this.#running.add(running);
  }

  /** How many tasks have started and not finished. */
  get size(): number {
    return this.#running.size;
  }

  /** Settles once every task started before, or while waiting, has finished. */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.all(this.#running);
  }
}
