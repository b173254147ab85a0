/**
 * A write killed at each of its storage calls, then retried after a restart: the crash contracts
 * (`contentCrashesContract`, `formCrashesContract`) run on it. A process can die between any
 * two of a write's store calls (the MongoDB adapter has no transaction: decision 0763), and a
 * client that lost its answer sends the write again. For each operation of the family, over a
 * fresh world each time:
 * 1. the operation runs once through, and its gated calls are counted (n);
 * 2. for each k from 0 to n, it runs again over a fresh world and the process "dies" after k
 *    calls: the (k+1)-th call, and every later call the dead run makes, never reaches the store
 *    (k = n: every call was made but the answer was lost);
 * 3. a new core starts on the same stores an hour later (past the webhook settle delay), and
 *    what reads show must be intact: the family's `intact` (no record naming one that is gone);
 * 4. the operation is sent again, and the family's `check` judges the world with what it did:
 *    its answer, or, when it is refused as not found (the dead run had finished it), its `done`.
 *    The check includes the webhook events: the dead run's event, settled from the store, and
 *    the retry's together must be exactly what one answered write sends.
 * The dead run's calls are told apart from the restarted core's by an `AsyncLocalStorage`
 * context: each fails without reaching the store, so nothing the dead run does afterwards writes.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Clock } from '../../shared/clock.js';
import { isDomainError } from '../../shared/domain-error.js';
import type { RaceGate, RaceScheduler } from '../race-gates.js';
import { steppingClock } from './drawn-races.js';

/** A write a client sends again when its answer is lost. */
export interface CrashOperation<W, D> {
  readonly label: string;
  run(world: W): Promise<D>;
  /** What it did, for the checks, when its retry is refused as not found: the dead run finished it. */
  done(world: W): D;
}

/** A crash contract: which writes are killed, over which world, judged how. */
export interface CrashFamily<S, W, D, O extends CrashOperation<W, D> = CrashOperation<W, D>> {
  /** The describe's title. */
  readonly suite: string;
  readonly operations: readonly O[];
  /** The world an operation starts from, on the stores the adapter made for it. */
  world(stores: S, clock: Clock): Promise<W>;
  /** The same world after a restart: a new core over the same stores, under `clock`, once it has done what a restart does. */
  restart(world: W, clock: Clock): Promise<W>;
  /** What reads must show whatever call the process running `killed` died at, before anything is retried. */
  intact(world: W, killed: O): Promise<void>;
  /** What must hold once the retry answered, given what the operation did. */
  check(world: W, done: D[]): Promise<void>;
}

const START = Date.parse('2026-01-01T00:00:00.000Z');
/** Later than any settle delay of unconfirmed webhook events (five minutes by default). */
const RESTART = START + 3_600_000;

/** Registers one test per operation of the family, each killing it at every one of its calls. */
export function describeCrashes<S, W, D, O extends CrashOperation<W, D>>(family: CrashFamily<S, W, D, O>, storesFor: (gate: RaceGate) => Promise<S>): void {
  describe(family.suite, () => {
    for (const operation of family.operations) {
      it(`${operation.label}, killed at each store call and retried, leaves reads intact and finishes`, async function () {
        this.timeout(120_000);
        const calls = await crashedRun(family, operation, storesFor, Number.POSITIVE_INFINITY);
        for (let k = 0; k <= calls; k++) await crashedRun(family, operation, storesFor, k);
      });
    }
  });
}

/**
 * Runs `operation` over a fresh world, letting `allowed` of its gated calls through; then
 * restarts, checks, retries and checks again. Answers how many calls the run made.
 */
async function crashedRun<S, W, D, O extends CrashOperation<W, D>>(family: CrashFamily<S, W, D, O>, operation: O, storesFor: (gate: RaceGate) => Promise<S>, allowed: number): Promise<number> {
  const gate: RaceGate = { current: undefined };
  const world = await family.world(await storesFor(gate), steppingClock(START));
  const death = new Death(allowed);
  gate.current = death;
  const run = DYING.run(death, () => operation.run(world));
  const outcome = await Promise.race([run.then(() => 'answered' as const, (error: unknown) => ({ error })), death.happened.then(() => 'died' as const)]);
  // The gate stays: it keeps failing the dead run's calls and lets every other call through.
  // The run through must answer; a killed run may only fail at the call it died at.
  if (typeof outcome === 'object' && death.at === undefined) throw outcome.error;
  if (allowed === Number.POSITIVE_INFINITY) return death.passed;
  // Let what the dead run already sent land before the restart, as a server would apply it, and
  // what it held in memory (a record's turn to update) go as its process would.
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
  const where = `${operation.label} killed after ${death.passed} store calls${death.at === undefined ? ' (all of them; the answer was lost)' : `, before ${death.at}`}`;
  try {
    const restarted = await family.restart(world, steppingClock(RESTART));
    await family.intact(restarted, operation);
    await family.check(restarted, [await retried(operation, restarted)]);
  } catch (error) {
    throw new Error(`${where}: ${(error as Error).message}`, { cause: error });
  }
  return death.passed;
}

/** The operation sent again: what it did, by its answer or, refused as not found, by its `done`. */
async function retried<W, D>(operation: CrashOperation<W, D>, world: W): Promise<D> {
  try {
    return await operation.run(world);
  } catch (error) {
    if (isDomainError(error) && error.code.endsWith('_NOT_FOUND')) return operation.done(world);
    throw new Error(`the retry failed with ${String(error)}`, { cause: error });
  }
}

/**
 * Which run a call belongs to, if any: the dying run's calls are told from the restarted core's
 * by this context. One instance for every run: each enabled `AsyncLocalStorage` costs every
 * promise created afterwards in the process.
 */
const DYING = new AsyncLocalStorage<Death>();

/** The gate of a run that dies after `allowed` calls: the dead run's later calls never return. */
class Death implements RaceScheduler {
  passed = 0;
  /** The call the process died before. */
  at: string | undefined;
  readonly happened: Promise<void>;
  #die!: () => void;

  constructor(private readonly allowed: number) {
    this.happened = new Promise((resolve) => (this.#die = resolve));
  }

  /**
   * Lets the run's first `allowed` calls through; from then on each of its calls fails at once
   * without reaching the store, so the dead run unwinds and lets go of what it held in memory
   * (a record's turn to update), which a killed process would not keep either.
   */
  schedule<T>(task: Promise<T>, label?: string): Promise<T> {
    if (DYING.getStore() !== this) return task;
    if (this.at !== undefined || this.passed >= this.allowed) {
      this.at ??= label ?? 'a call';
      this.#die();
      return Promise.reject(new Error('the process was killed (crash contract)'));
    }
    this.passed++;
    return task;
  }
}
