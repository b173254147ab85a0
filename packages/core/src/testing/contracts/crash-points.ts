/**
 * A write killed at each of its storage calls, then retried after a restart: the crash contracts
 * (`contentCrashesContract`, `formCrashesContract`) run on it. A process can die between any
 * two of a write's store calls (the MongoDB adapter has no transaction: decision 0763), and a
 * client that lost its answer sends the write again. For each operation of the family, over a
 * fresh world each time:
 * 1. the operation runs once through, and its gated calls are counted (n);
 * 2. for each k from 0 to n, it runs again over a fresh world and the process "dies" after k
 *    calls: the (k+1)-th call, and every later call the dead run makes, never reaches the store
 *    (k = n: every call was made but the answer was lost); then, for each k below n, the
 *    (k+1)-th call reaches the store but its acknowledgement is lost, and the run goes on;
 * 3. a new core starts on the same stores an hour later (past the webhook settle delay), and
 *    what reads show must be intact: the family's `intact` (no record naming one that is gone);
 *    for a write that is sent again, also with the restart a minute later, before the dead run's
 *    events are settled: the retry then announces the change first, and the event the dead run
 *    staged is settled only after it, by a restart an hour later (decision 0821);
 * 4. the operation is sent again, and the family's `check` judges the world with what it did:
 *    its answer, or, when it is refused as not found (the dead run had finished it), its `done`.
 *    The check includes the webhook events: the dead run's event, settled from the store, and
 *    the retry's together must be exactly what one answered write sends. A create, a submit or
 *    an update is not sent again (a second one is another write): its `landed` reads whether
 *    the faulted run's write is there, and the check judges the world with that write or none,
 *    its event exactly once or not at all.
 * The faulted run's calls are told apart from the restarted core's by an `AsyncLocalStorage`
 * context: a dead run's calls fail without reaching the store, so nothing it does afterwards writes.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Clock } from '../../shared/clock.js';
import { isDomainError } from '../../shared/domain-error.js';
import type { RaceGate, RaceScheduler } from '../race-gates.js';
import { steppingClock } from './drawn-races.js';

/** A write the crash contract faults: one of the two optional methods says how it is judged. */
export interface CrashOperation<W, D> {
  readonly label: string;
  /** What the world needs before this write, done before the fault is set (so not faulted). */
  prepare?(world: W): Promise<void>;
  run(world: W): Promise<D>;
  /**
   * A write a client sends again when its answer is lost (a delete, a connect, a move): what it
   * did, for the checks, when its retry is refused as not found (the faulted run finished it).
   */
  done?(world: W): D;
  /**
   * What an operator does after such a fault, before the check: the reaction recount's repair
   * for a reaction, whose record and totals are two writes (decision 0402).
   */
  recover?(world: W): Promise<void>;
  /**
   * A write a client does not simply send again (a create, a submit, an update: a second one is
   * another write): whether the faulted run's write landed, read from the stores after the
   * restart, and what it did if so. It is not sent again.
   */
  landed?(world: W): Promise<D | undefined>;
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

/** Registers one test per operation of the family: killed at every one of its calls, then each call's acknowledgement lost in turn. */
export function describeCrashes<S, W, D, O extends CrashOperation<W, D>>(family: CrashFamily<S, W, D, O>, storesFor: (gate: RaceGate) => Promise<S>): void {
  describe(family.suite, () => {
    for (const operation of family.operations) {
      const after = operation.landed ? 'is there whole or not at all' : 'is finished by a retry';
      it(`${operation.label}, killed at each store call or with one acknowledgement lost, leaves reads intact and ${after}`, async function () {
        this.timeout(120_000);
        const calls = await faultedRun(family, operation, storesFor, new StoreFault('killed', Number.POSITIVE_INFINITY));
        for (let k = 0; k <= calls; k++) await faultedRun(family, operation, storesFor, new StoreFault('killed', k));
        for (let k = 0; k < calls; k++) await faultedRun(family, operation, storesFor, new StoreFault('failed', k));
        if (!operation.landed) for (let k = 0; k <= calls; k++) await faultedRun(family, operation, storesFor, new StoreFault('killed', k), 'retried before settling');
      });
    }
  });
}

/**
 * Runs `operation` over a fresh world under `fault`; then restarts, checks, retries and checks
 * again. Answers how many calls the run made.
 */
async function faultedRun<S, W, D, O extends CrashOperation<W, D>>(
  family: CrashFamily<S, W, D, O>,
  operation: O,
  storesFor: (gate: RaceGate) => Promise<S>,
  fault: StoreFault,
  order: 'settled first' | 'retried before settling' = 'settled first',
): Promise<number> {
  const gate: RaceGate = { current: undefined };
  const world = await family.world(await storesFor(gate), steppingClock(START));
  await operation.prepare?.(world);
  gate.current = fault; // and stays: it lets every call of the restarted core through
  // Every call of the faulted run after the fault fails (killed) or goes through (failed), so the run settles.
  const failure = await fault.run(() => operation.run(world)).then(() => undefined, (error: unknown) => error);
  if (fault.at === undefined && failure !== undefined) throw failure; // only the fault may fail a run
  if (fault.after === Number.POSITIVE_INFINITY) return fault.passed;
  // Let what the run already sent land before the restart, as a server would apply it.
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
  try {
    if (order === 'retried before settling') {
      const soon = await family.restart(world, steppingClock(START + 60_000));
      await family.intact(soon, operation);
      const done = await retried(operation, soon);
      const later = await family.restart(soon, steppingClock(RESTART));
      await operation.recover?.(later);
      await family.check(later, [done]);
      return fault.passed;
    }
    const restarted = await family.restart(world, steppingClock(RESTART));
    await family.intact(restarted, operation);
    const done = operation.landed ? await operation.landed(restarted) : await retried(operation, restarted);
    await operation.recover?.(restarted);
    await family.check(restarted, done === undefined ? [] : [done]);
  } catch (error) {
    throw new Error(`${operation.label} ${fault.where()}${order === 'settled first' ? '' : `, ${order}`}: ${(error as Error).message}`, { cause: error });
  }
  return fault.passed;
}

/** The operation sent again: what it did, by its answer or, refused as not found, by its `done`. */
async function retried<W, D>(operation: CrashOperation<W, D>, world: W): Promise<D> {
  try {
    return await operation.run(world);
  } catch (error) {
    if (isDomainError(error) && error.code.endsWith('_NOT_FOUND') && operation.done) return operation.done(world);
    throw new Error(`the retry failed with ${String(error)}`, { cause: error });
  }
}

/**
 * Which fault a call belongs to, if any: the faulted run's calls are told from the restarted
 * core's by this context. One instance for every run: each enabled `AsyncLocalStorage` costs
 * every promise created afterwards in the process, so one per run slowed the tests that follow.
 */
const FAULTED = new AsyncLocalStorage<StoreFault>();

/**
 * The gate of a faulted run: its first `after` calls go through; then, `killed`, the process dies
 * and each later call of the run fails at once without reaching the store (so the run unwinds
 * and lets go of what it held in memory, a record's turn to update, as a dead process would);
 * or, `failed`, that one call reaches the store but its acknowledgement is lost (the caller gets
 * an error; the change may have landed, here it has), and the run goes on.
 */
class StoreFault implements RaceScheduler {
  passed = 0;
  /** The call the fault struck. */
  at: string | undefined;
  /** The faulted run's answers seen so far: they come in the order its calls were let through. */
  #answers = 0;

  constructor(
    private readonly mode: 'killed' | 'failed',
    readonly after: number,
  ) {}

  /** Runs `work` as the faulted run: its calls, and only they, meet the fault. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return FAULTED.run(this, work);
  }

  schedule<T>(task: Promise<T>, label?: string): Promise<T> {
    if (FAULTED.getStore() !== this) return task;
    if (this.mode === 'killed' && (this.at !== undefined || this.passed >= this.after)) {
      this.at ??= label ?? 'a call';
      return Promise.reject(new Error('the process was killed (crash contract)'));
    }
    this.passed++;
    return task;
  }

  answered<T>(answer: Promise<T>, label: string): Promise<T> {
    if (FAULTED.getStore() !== this || this.mode !== 'failed' || this.#answers++ !== this.after) return answer;
    this.at = label;
    return answer.then(
      () => Promise.reject(new Error('the acknowledgement was lost (crash contract)')),
      () => Promise.reject(new Error('the acknowledgement was lost (crash contract)')),
    );
  }

  /** Where the fault struck, for a failure's message. */
  where(): string {
    if (this.at === undefined) return `with every store call made (${this.passed}) and its answer lost`;
    return this.mode === 'killed' ? `killed after ${this.passed} store calls, before ${this.at}` : `with the acknowledgement of store call ${this.after + 1} (${this.at}) lost`;
  }
}
