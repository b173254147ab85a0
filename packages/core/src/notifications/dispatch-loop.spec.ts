import { expect } from 'chai';
import type { DispatchReport } from './dispatch-notifications.use-case.js';
import type { Logger } from '../shared/logger.js';
import { DispatchLoop } from './dispatch-loop.js';

const report = (claimed: number): DispatchReport => ({ claimed, sent: claimed, retried: 0, failed: 0, skipped: 0 });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class RecordingLogger implements Logger {
  readonly errors: Array<Record<string, unknown> | undefined> = [];
  info() {}
  warn() {}
  error(_message: string, fields?: Record<string, unknown>) {
    this.errors.push(fields);
  }
}

/** A dispatcher whose passes return the scripted reports (then empty ones) and count themselves. */
class ScriptedDispatch {
  passes = 0;
  startedAt: number[] = [];
  constructor(private readonly script: Array<DispatchReport | Error | (() => Promise<DispatchReport>)> = []) {}
  async execute(): Promise<DispatchReport> {
    this.startedAt.push(performance.now());
    const next = this.script[this.passes++];
    if (next instanceof Error) throw next;
    if (typeof next === 'function') return next();
    return next ?? report(0);
  }
}

describe('DispatchLoop', () => {
  let loop: DispatchLoop | undefined;
  afterEach(() => loop?.stop());

  describe('when started', () => {
    it('runs a pass at once, then one per poll interval', async () => {
      const dispatch = new ScriptedDispatch();
      loop = new DispatchLoop(dispatch, { intervalMs: 40, batchSize: 10 }, new RecordingLogger());
      loop.start();
      loop.start();
      await sleep(10);
      expect(dispatch.passes).to.equal(1);
      await sleep(100);
      expect(dispatch.passes).to.be.within(2, 4);
      const gaps = dispatch.startedAt.slice(1).map((at, i) => at - dispatch.startedAt[i]!);
      for (const gap of gaps) expect(gap).to.be.at.least(35);
    });
  });

  describe('when a pass fills a whole batch', () => {
    it('goes again without waiting for the poll interval', async () => {
      const dispatch = new ScriptedDispatch([report(10), report(10), report(3)]);
      loop = new DispatchLoop(dispatch, { intervalMs: 1000, batchSize: 10 }, new RecordingLogger());
      loop.start();
      await sleep(60);
      expect(dispatch.passes).to.equal(3);
    });
  });

  describe('when a pass fails', () => {
    it('logs the error and keeps polling', async () => {
      const logger = new RecordingLogger();
      const dispatch = new ScriptedDispatch([new Error('store unreachable')]);
      loop = new DispatchLoop(dispatch, { intervalMs: 20, batchSize: 10 }, logger);
      loop.start();
      await sleep(70);
      expect(logger.errors[0]).to.deep.equal({ error: 'store unreachable' });
      expect(dispatch.passes).to.be.at.least(2);
    });
  });

  describe('when stopped', () => {
    it('waits for the pass in progress and runs no more', async () => {
      let finished = false;
      const dispatch = new ScriptedDispatch([
        async () => {
          await sleep(80);
          finished = true;
          return report(10);
        },
      ]);
      loop = new DispatchLoop(dispatch, { intervalMs: 10, batchSize: 10 }, new RecordingLogger());
      loop.start();
      await sleep(10);
      const started = performance.now();
      await loop.stop();
      expect(finished).to.equal(true);
      expect(performance.now() - started).to.be.at.least(50);
      await sleep(50);
      expect(dispatch.passes).to.equal(1);
    });

    it('never starts once stopped before its first pass', async () => {
      const dispatch = new ScriptedDispatch();
      loop = new DispatchLoop(dispatch, { intervalMs: 10, batchSize: 10 }, new RecordingLogger());
      loop.start();
      await loop.stop();
      loop.start();
      await sleep(40);
      expect(dispatch.passes).to.equal(0);
    });
  });
});

describe('DispatchLoop options', () => {
  it('refuses a batch size below 1 or a negative interval', () => {
    const dispatch = new ScriptedDispatch();
    expect(() => new DispatchLoop(dispatch, { intervalMs: 10, batchSize: 0 }, new RecordingLogger())).to.throw(RangeError);
    expect(() => new DispatchLoop(dispatch, { intervalMs: -1, batchSize: 10 }, new RecordingLogger())).to.throw(RangeError);
  });
});
