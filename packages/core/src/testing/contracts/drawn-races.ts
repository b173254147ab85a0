/**
 * Racing use cases in orders fast-check draws: a storage's calls wait at a gate (`race-gates.ts`)
 * for fast-check's scheduler, so operations started together interleave at those calls in an
 * order fast-check picks, reports and shrinks. The race contracts (`contentRacesContract`,
 * `formRacesContract`) run on it. The drawn counterpart of core's forced interleavings, which
 * hold one store call by hand. Needs `fast-check`, an optional peer dependency of `@cms/core`
 * loaded only when a race contract runs (importing the contracts does not need it).
 */
import type { Arbitrary } from 'fast-check';
import type { Clock } from '../../shared/clock.js';
import { DomainError } from '../../shared/domain-error.js';
import type { RaceGate, RaceOptions } from '../race-gates.js';

/** fast-check's entry object, loaded when a race runs. */
export type FastCheck = typeof import('fast-check').default;

export async function loadFastCheck(): Promise<FastCheck> {
  return (await import('fast-check')).default;
}

/** One operation of a race: `label` names it in a failure's report. */
export interface RaceOperation<W, D> {
  readonly label: string;
  run(world: W): Promise<D>;
}

/** An operation that a failure's report names by its label. */
export function raceOperation<W, D>(fc: FastCheck, label: string, run: (world: W) => Promise<D>): RaceOperation<W, D> {
  return { label, run, [fc.toStringMethod]: () => label } as RaceOperation<W, D>;
}

/** How many races a contract draws: RACE_RUNS, else the storage's own number, else 1000. */
export function raceRuns(runs = 1000): number {
  return Number(process.env.RACE_RUNS ?? runs);
}

/** A race contract: what it draws, over which world, judged how. */
export interface RaceFamily<S, W, D> {
  /** The describe's title. */
  readonly suite: string;
  /** The test's title: what must hold. */
  readonly holds: string;
  operations(fc: FastCheck): Arbitrary<RaceOperation<W, D>>;
  /** The world a race starts from, on the stores the adapter made for it. */
  world(stores: S, clock: Clock): Promise<W>;
  /** What the race also waits for once every operation has answered (work a use case left running). */
  settle?(world: W): Promise<void>;
  check(world: W, done: D[]): Promise<void>;
}

/** Registers a race contract on the stores `storesFor` makes, a fresh set per race. */
export function describeRaces<S, W, D>(family: RaceFamily<S, W, D>, storesFor: (gate: RaceGate) => Promise<S>, options: RaceOptions): void {
  describe(family.suite, () => {
    it(family.holds, async function () {
      const runs = raceRuns(options.runs);
      this.timeout(Math.max(60_000, runs * 200));
      await assertRaces(family, storesFor, runs);
    });
  });
}

/**
 * Draws races: two to RACE_MAX operations (default 6) started together over a fresh world whose
 * gated calls wait at the gate its stores were made with, under a drawn clock; each must answer
 * or be refused with a domain error (anything else fails the race), then the family's `check`
 * judges the world and what the answers said. RACE_SEED and RACE_PATH replay a failure
 * (fast-check prints both, with the order the gated calls were let through).
 */
async function assertRaces<S, W, D>(family: RaceFamily<S, W, D>, storesFor: (gate: RaceGate) => Promise<S>, runs: number): Promise<void> {
  const fc = await loadFastCheck();
  const gate: RaceGate = { current: undefined };
  const races = fc.array(family.operations(fc), { minLength: 2, maxLength: Number(process.env.RACE_MAX ?? 6) });
  await fc.assert(
    fc.asyncProperty(races, fc.constantFrom('stepping', 'standing'), fc.scheduler(), async (race, clock, scheduler) => {
      gate.current = undefined;
      const world = await family.world(await storesFor(gate), raceClock(clock));
      gate.current = scheduler;
      try {
        const settled = Promise.all(race.map((operation) => answerOf(operation, world))).then(async (answers) => {
          await family.settle?.(world);
          return answers;
        });
        const outcomes = await scheduler.waitFor(settled);
        gate.current = undefined;
        await family.check(world, outcomes.flatMap((outcome) => (outcome instanceof DomainError ? [] : [outcome])));
      } finally {
        gate.current = undefined;
      }
    }),
    {
      numRuns: runs,
      ...(process.env.RACE_SEED === undefined ? {} : { seed: Number(process.env.RACE_SEED) }),
      ...(process.env.RACE_PATH === undefined ? {} : { path: process.env.RACE_PATH }),
    },
  );
}

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
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  return kind === 'stepping' ? steppingClock(start) : { now: () => new Date(start) };
}

/** A clock from `start`, one millisecond later at every read. */
export function steppingClock(start: number): Clock {
  let next = start;
  return { now: () => new Date(next++) };
}
