import { expect } from 'chai';
import { JOB_COUNTS_MAX_AGE_MS, ServiceMetrics } from './service-metrics.js';

/** A job count whose calls are counted, and each settled by the test. */
function pendingCounts() {
  const calls: Array<{ resolve: (counts: Record<string, number>) => void; reject: (error: Error) => void }> = [];
  const count = () =>
    new Promise<Record<string, number>>((resolve, reject) => {
      calls.push({ resolve, reject });
    });
  return { calls, count };
}

/** Lets a scrape started just before reach its count. */
const aTurn = () => new Promise((resolve) => setImmediate(resolve));

const pendingLine = (text: string) => /^outbox_jobs\{status="pending"\} (\d+)$/m.exec(text)?.[1];

describe('ServiceMetrics job counts', () => {
  let clock: number;
  const now = () => clock;
  beforeEach(() => {
    clock = 1_000;
  });

  it('asks the store once for the scrapes of JOB_COUNTS_MAX_AGE_MS, and again after it', async () => {
    expect(JOB_COUNTS_MAX_AGE_MS).to.equal(5_000);
    let asked = 0;
    const metrics = new ServiceMetrics({ jobsByStatus: async () => ({ pending: (asked += 1) }) }, { now });
    expect(pendingLine(await metrics.text())).to.equal('1');
    clock += JOB_COUNTS_MAX_AGE_MS - 1;
    expect(pendingLine(await metrics.text())).to.equal('1');
    expect(asked).to.equal(1);
    clock += 1;
    expect(pendingLine(await metrics.text())).to.equal('2');
    expect(asked).to.equal(2);
  });

  it('lets scrapes that come while a count runs wait for it, even past the age', async () => {
    const { calls, count } = pendingCounts();
    const metrics = new ServiceMetrics({ jobsByStatus: count }, { now });
    const first = metrics.text();
    clock += 10 * JOB_COUNTS_MAX_AGE_MS; // a slow store: the count outlives the age
    const second = metrics.text();
    await aTurn();
    expect(calls).to.have.length(1);
    calls[0]!.resolve({ pending: 7 });
    expect([pendingLine(await first), pendingLine(await second)]).to.deep.equal(['7', '7']);
    // Finished, and then older than the age: the next scrape counts afresh.
    clock += JOB_COUNTS_MAX_AGE_MS;
    const third = metrics.text();
    await aTurn();
    expect(calls).to.have.length(2);
    calls[1]!.resolve({ pending: 8 });
    expect(pendingLine(await third)).to.equal('8');
  });

  it('keeps no failed count: the scrape fails, and the next one asks again', async () => {
    const { calls, count } = pendingCounts();
    const metrics = new ServiceMetrics({ jobsByStatus: count }, { now });
    const failing = metrics.text();
    await aTurn();
    calls[0]!.reject(new Error('store unreachable'));
    expect(await failing.catch((error: Error) => error.message)).to.equal('store unreachable');
    const next = metrics.text();
    await aTurn();
    expect(calls).to.have.length(2);
    calls[1]!.resolve({ pending: 3 });
    expect(pendingLine(await next)).to.equal('3');
  });

  it('shares the outbox count and the webhook count each on its own', async () => {
    let outbox = 0;
    let webhooks = 0;
    const metrics = new ServiceMetrics(
      { jobsByStatus: async () => ({ pending: (outbox += 1) }), webhookJobsByStatus: async () => ({ pending: (webhooks += 10) }) },
      { now },
    );
    await metrics.text();
    await metrics.text();
    expect([outbox, webhooks]).to.deep.equal([1, 10]);
    expect(await metrics.text()).to.match(/^webhook_jobs\{status="pending"\} 10$/m);
  });
});
