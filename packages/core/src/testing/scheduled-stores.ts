/**
 * Racing use cases in every order fast-check draws: each call of a store's async method waits
 * for the scheduler before it is made, so operations started together interleave at their store
 * calls in an order fast-check picks, reports (`scheduler.report()`) and shrinks. The drawn
 * counterpart of `held-calls.ts`, which forces one order by hand. For core's own specs (not part
 * of the `./testing` entry).
 */
import fc from 'fast-check';
import type { Clock } from '../shared/clock.js';
import { DomainError } from '../shared/domain-error.js';

/** Where the stores' calls wait: none between runs (set-up and checks call straight through). */
export interface Schedule {
  current: fc.Scheduler | undefined;
}

/**
 * `stores` with their async methods gated by `schedule.current` (only the stores named: the
 * others, and every method that is not an `async function`, call straight through).
 */
export function scheduledStores<S extends object>(stores: S, names: ReadonlyArray<keyof S & string>, schedule: Schedule): S {
  const gated = { ...stores };
  for (const name of names) gated[name] = gatedStore(stores[name] as object, name, schedule) as S[typeof name];
  return gated;
}

function gatedStore<T extends object>(store: T, name: string, schedule: Schedule): T {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || value.constructor.name !== 'AsyncFunction') return value;
      const method = value as (...args: unknown[]) => Promise<unknown>;
      return (...args: unknown[]) => {
        const scheduler = schedule.current;
        if (!scheduler) return method.apply(target, args);
        return scheduler.schedule(Promise.resolve(), `${name}.${String(property)}`).then(() => method.apply(target, args));
      };
    },
  });
}

/** One operation of a race: `label` names it in a failure's report. */
export interface RaceOperation<W, D> {
  readonly label: string;
  run(world: W): Promise<D>;
}

/** An operation that a failure's report names by its label. */
export function raceOperation<W, D>(label: string, run: (world: W) => Promise<D>): RaceOperation<W, D> {
  return { label, run, [fc.toStringMethod]: () => label } as RaceOperation<W, D>;
}

/** A race's world, built over stores gated by `schedule` (`scheduledStores`) and using `clock`. */
export type RaceWorld<W> = (schedule: Schedule, clock: Clock) => Promise<W>;

/**
 * Draws races: two to RACE_MAX operations (default 6) started together over a fresh world,
 * their store calls let through in a drawn order, under a drawn clock; each must answer or be
 * refused with a domain error (anything else fails the race), and `check` judges the world and
 * what the answers said. RACE_RUNS races (default 1000); RACE_SEED and RACE_PATH replay a failure
 * (fast-check prints both, with the order the store calls were let through).
 */
export async function assertRaces<W, D>(operations: fc.Arbitrary<RaceOperation<W, D>>, world: RaceWorld<W>, check: (world: W, done: D[]) => Promise<void>): Promise<void> {
  const schedule: Schedule = { current: undefined };
  const races = fc.array(operations, { minLength: 2, maxLength: Number(process.env.RACE_MAX ?? 6) });
  await fc.assert(
    fc.asyncProperty(races, fc.constantFrom('stepping', 'standing'), fc.scheduler(), async (race, clock, scheduler) => {
      schedule.current = undefined;
      const built = await world(schedule, raceClock(clock));
      schedule.current = scheduler;
      const outcomes = await scheduler.waitFor(Promise.all(race.map((operation) => answerOf(operation, built))));
      schedule.current = undefined;
      await check(built, outcomes.flatMap((outcome) => (outcome instanceof DomainError ? [] : [outcome])));
    }),
    {
      numRuns: RACE_RUNS,
      ...(process.env.RACE_SEED === undefined ? {} : { seed: Number(process.env.RACE_SEED) }),
      ...(process.env.RACE_PATH === undefined ? {} : { path: process.env.RACE_PATH }),
    },
  );
}

/** Races per spec: long enough for mocha's timeout (a race takes a few milliseconds). */
export const RACE_RUNS = Number(process.env.RACE_RUNS ?? 1000);

/** An answer, or the domain error that refused it. */
async function answerOf<W, D>(operation: RaceOperation<W, D>, world: W): Promise<D | DomainError> {
  try {
    return await operation.run(world);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw new Error(`${operation.label} failed with ${String(error)}`, { cause: error });
  }
}

/**
 * A clock one millisecond later at every read (`stepping`), or standing still so that writes
 * share their millisecond (as on a fast machine). Either way a drawn race replays the same
 * times, where the system clock would let two replays of one order differ.
 */
function raceClock(kind: 'stepping' | 'standing'): Clock {
  let next = Date.parse('2026-01-01T00:00:00.000Z');
  return { now: () => new Date(kind === 'stepping' ? next++ : next) };
}
