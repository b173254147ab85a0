/**
 * For tests that an operation's cost does not grow with records it neither returns nor changes
 * (an embedded store's walk over a whole outbox or tenant inside a request). Not exported from
 * the testing entry: the memory adapters' own specs use it.
 */
import { expect } from 'chai';

/**
 * The fastest of a few timed runs of `operation`, in milliseconds. The fastest run leaves out what
 * a busy machine adds (another process, a garbage collection), so two of them compare the
 * operation's own work.
 */
export async function fastestRun(operation: () => Promise<unknown>, runs = 7): Promise<number> {
  let fastest = Infinity;
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await operation();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return fastest;
}

/**
 * Expects `operation` to cost about the same once `addUnrelated` has stored many records it must
 * not read: no more than ten times its fastest run before, with `slackMs` (a millisecond unless
 * told) for the timer and the machine. A walk over 20,000 records costs several milliseconds more;
 * a bare count of them, a couple: such a test gives less slack.
 */
export async function expectCostIndependentOf(label: string, operation: () => Promise<unknown>, addUnrelated: () => Promise<void>, slackMs = 1): Promise<void> {
  const before = await fastestRun(operation);
  await addUnrelated();
  const after = await fastestRun(operation);
  expect(after, `${label}: ${after.toFixed(3)} ms with the unrelated records, ${before.toFixed(3)} ms without`).to.be.below(before * 10 + slackMs);
}
