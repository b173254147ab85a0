/**
 * Shared parts of the model-based sequence specs (`*-sequences.int.spec.ts`): fast-check draws a
 * list of commands, each runs against the service and keeps a small model of what the run
 * created, and a check command says what must hold after any sequence. SEQUENCE_RUNS (default
 * 100 per family and storage, or the family's own) and SEQUENCE_SEED (replay a failure) tune them.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { engagementClient, type Headers } from './engagement-client.js';
import { startTestService, TEST_STORAGES, type TestService } from './test-service.js';

const DEFAULT_RUNS = 100;

/** Options for `fc.assert`: SEQUENCE_RUNS, else the family's own count, and the seed of a failure to replay. */
function sequenceParameters(familyRuns = DEFAULT_RUNS) {
  return {
    numRuns: process.env.SEQUENCE_RUNS === undefined ? familyRuns : Number(process.env.SEQUENCE_RUNS),
    ...(process.env.SEQUENCE_SEED === undefined ? {} : { seed: Number(process.env.SEQUENCE_SEED) }),
  };
}

/** Sequences of up to 40 commands, the length drawn over the whole range. */
function commandSequences<M extends object, R>(commands: Array<fc.Arbitrary<fc.AsyncCommand<M, R>>>) {
  return fc.commands(commands, { maxCommands: 40, size: 'max' });
}

/** `fc.commands` picks among its generators evenly: a weight is that many copies. */
export function weighted<C>(entries: Array<[number, fc.Arbitrary<C>]>): Array<fc.Arbitrary<C>> {
  return entries.flatMap(([weight, arbitrary]) => Array.from({ length: weight }, () => arbitrary));
}

/** The record at a drawn index: commands draw plain numbers, the model decides what they name. */
export function at<T>(list: readonly T[], index: number): T {
  return list[index % list.length]!;
}

export function expectStatus(res: { status: number; body: unknown }, statuses: readonly number[], what: string): void {
  expect(statuses, `${what}: ${res.status} ${JSON.stringify(res.body)}`).to.include(res.status);
}

/** The service a family's runs share, with the bearer headers of an editor. */
export interface SequenceService {
  readonly api: TestService;
  readonly editor: Headers;
}

export interface SequenceFamily<M extends object, R> {
  /** Named in the describe: `Random sequences of <operations> operations`. */
  readonly operations: string;
  /** Sequences per storage unless SEQUENCE_RUNS says (default 100): fewer for a family whose runs wait. */
  readonly runs?: number;
  /** Settings of the service the runs share (default none). */
  readonly env?: Record<string, string>;
  /** Once the service is started, before the first run; `dispose` after the last. */
  prepare?(service: SequenceService): Promise<void>;
  dispose?(): Promise<void>;
  /** What must hold after any sequence: the test's title. */
  readonly holds: string;
  readonly commands: Array<fc.Arbitrary<fc.AsyncCommand<M, R>>>;
  /** A run's empty model and real side; `run` counts the runs on this service, to keep their names apart. */
  start(service: SequenceService, run: number): { model: M; real: R };
  /** Run once more after the last command of every sequence. */
  readonly check: fc.AsyncCommand<M, R>;
}

/** One test per storage: drawn sequences against one started service. */
export function describeSequences<M extends object, R>(family: SequenceFamily<M, R>): void {
  for (const storage of TEST_STORAGES) {
    describe(`Random sequences of ${family.operations} operations (storage: ${storage})`, () => {
      let service: SequenceService;
      let runs = 0;
      before(async () => {
        const api = await startTestService(family.env ?? {}, { storage });
        service = { api, editor: await engagementClient(api).bearer('editor') };
        await family.prepare?.(service);
      });
      after(async () => {
        await service?.api.stop();
        await family.dispose?.();
      });

      it(family.holds, async function () {
        const parameters = sequenceParameters(family.runs);
        this.timeout(Math.max(60_000, parameters.numRuns * 2_000));
        await fc.assert(
          fc.asyncProperty(commandSequences(family.commands), async (commands) => {
            const { model, real } = family.start(service, (runs += 1));
            await fc.asyncModelRun(() => ({ model, real }), commands);
            await family.check.run(model, real);
          }),
          parameters,
        );
      });
    });
  }
}
