/**
 * What the edge knows about the service as a whole: how many requests are being handled, and
 * whether the service is draining (after SIGTERM). While draining, `/readyz` answers 503 so a
 * load balancer stops sending, every answer says `Connection: close`, and the server waits for
 * `whenIdle()` before it stops listening (CONTRACT §8 "Draining").
 */
export class ServingState {
  #inFlight = 0;
  #draining = false;
  #idleWaiters: Array<() => void> = [];

  get draining(): boolean {
    return this.#draining;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** A request starts being handled. */
  enter(): void {
    this.#inFlight += 1;
  }

  /** A request's answer is decided. */
  leave(): void {
    this.#inFlight -= 1;
    if (this.#inFlight === 0 && this.#idleWaiters.length > 0) {
      for (const resolve of this.#idleWaiters.splice(0)) resolve();
    }
  }

  beginDrain(): void {
    this.#draining = true;
  }

  /** Resolves once no request is being handled (at once when none is). */
  whenIdle(): Promise<void> {
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }
}
