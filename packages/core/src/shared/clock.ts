/** Time as a port, so quotas, windows and timestamps can be tested with a controllable clock. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock the caller moves by hand (tests, simulations). */
export class ManualClock implements Clock {
  #now: number;

  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.#now = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.#now);
  }

  set(at: Date | string): void {
    this.#now = new Date(at).getTime();
  }

  advance(ms: number): void {
    this.#now += ms;
  }
}
