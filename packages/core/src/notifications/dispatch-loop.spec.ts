import { expect } from 'chai';
import type { Logger } from '../shared/logger.js';
import { DispatchLoop, type DispatchPass } from './dispatch-loop.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class RecordingLogger implements Logger {
  readonly errors: Array<Record<string, unknown> | undefined> = [];
  info() {}
  warn() {}
  error(_message: string, fields?: Record<string, unknown>) {
    this.errors.push(fields);
  }
}

/** A send the test settles by hand. */
class HeldSend {
  readonly promise: Promise<void>;
  release!: () => void;
  fail!: (error: Error) => void;
  constructor() {
    this.promise = new Promise<void>((resolve, reject) => ((this.release = resolve), (this.fail = reject)));
  }
}

type Pass = number | Error | ((limit: number) => Promise<Array<Promise<unknown>>>);

/**
 * A dispatcher whose passes follow the script (then claim nothing): a number claims that many
 * jobs (at most the limit) whose sends settle at once. It records each pass's limit and start.
 */
class ScriptedDispatch implements DispatchPass {
  limits: number[] = [];
  startedAt: number[] = [];
  constructor(private readonly script: Pass[] = []) {}
  get passes() {
    return this.limits.length;
  }
  async claimAndSend(limit: number): Promise<Array<Promise<unknown>>> {
    this.startedAt.push(performance.now());
    const next = this.script[this.limits.length];
    this.limits.push(limit);
    if (next instanceof Error) throw next;
    if (typeof next === 'function') return next(limit);
    return Array.from({ length: Math.min(next ?? 0, limit) }, () => Promise.resolve('sent'));
  }
}

/** Every pass claims all it may; each send is held until the test settles it. */
class HoldingDispatch implements DispatchPass {
  readonly sends: HeldSend[] = [];
  limits: number[] = [];
  inFlight = 0;
  mostInFlight = 0;
  async claimAndSend(limit: number): Promise<Array<Promise<unknown>>> {
    this.limits.push(limit);
    return Array.from({ length: limit }, () => {
      const send = new HeldSend();
      this.sends.push(send);
      this.mostInFlight = Math.max(this.mostInFlight, ++this.inFlight);
      return send.promise.finally(() => (this.inFlight -= 1));
    });
  }
}

/** A dispatcher whose first pass claims one held send, and every pass says the jobs it passed over wait for that send. */
function holdingBack() {
  const slow = new HeldSend();
  let settled = false;
  void slow.promise.then(() => (settled = true));
  const dispatch = Object.assign(new ScriptedDispatch([async () => [slow.promise]]), {
    heldBack: () => (settled ? undefined : slow.promise),
  });
  return { dispatch, slow };
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
      const dispatch = new ScriptedDispatch([10, 10, 3]);
      loop = new DispatchLoop(dispatch, { intervalMs: 1000, batchSize: 10 }, new RecordingLogger());
      loop.start();
      await sleep(60);
      expect(dispatch.passes).to.equal(3);
      expect(dispatch.limits).to.deep.equal([10, 10, 10]);
    });
  });

  describe('when a send is still in flight', () => {
    it('runs the next passes without waiting for it, each claiming only the places left', async () => {
      const slow = new HeldSend();
      const dispatch = new ScriptedDispatch([async () => [slow.promise], 2]);
      loop = new DispatchLoop(dispatch, { intervalMs: 20, batchSize: 3 }, new RecordingLogger());
      loop.start();
      await sleep(90);
      expect(dispatch.passes).to.be.at.least(3);
      expect(dispatch.limits.slice(0, 3)).to.deep.equal([3, 2, 2]);
      slow.release();
      await sleep(50);
      expect(dispatch.limits.at(-1)).to.equal(3);
    });

    it('never has more than batchSize sends in flight, and starts a pass as soon as a place is free', async () => {
      const dispatch = new HoldingDispatch();
      loop = new DispatchLoop(dispatch, { intervalMs: 10_000, batchSize: 4 }, new RecordingLogger());
      loop.start();
      await sleep(60);
      // The full pass asked for the next at once; with every place taken it waits for one.
      expect(dispatch.limits).to.deep.equal([4]);
      expect(dispatch.inFlight).to.equal(4);
      dispatch.sends[1]!.release();
      dispatch.sends[2]!.fail(new Error('receiver reset'));
      await sleep(30);
      expect(dispatch.limits).to.deep.equal([4, 2]);
      expect(dispatch.inFlight).to.equal(4);
      expect(dispatch.mostInFlight).to.equal(4);
      const stopping = loop.stop();
      for (const send of dispatch.sends) send.release();
      await stopping;
    });

    it('runs the next pass as soon as a send it was told held jobs back settles, not after the interval', async () => {
      const { dispatch, slow } = holdingBack();
      loop = new DispatchLoop(dispatch, { intervalMs: 10_000, batchSize: 4 }, new RecordingLogger());
      loop.start();
      await sleep(40);
      expect(dispatch.passes).to.equal(1);
      slow.release();
      await sleep(40);
      // One pass more, at once; it held nothing back, so the next waits the interval.
      expect(dispatch.passes).to.equal(2);
      await sleep(40);
      expect(dispatch.passes).to.equal(2);
    });

    it('starts one early pass when that send settles, however many passes waited for it', async () => {
      const { dispatch, slow } = holdingBack();
      loop = new DispatchLoop(dispatch, { intervalMs: 30, batchSize: 4 }, new RecordingLogger());
      loop.start();
      while (dispatch.passes < 3) await sleep(5); // the first pass, then the interval's: each asked and waits
      const before = dispatch.passes;
      slow.release();
      await sleep(10);
      expect(dispatch.passes).to.equal(before + 1);
    });

    it('logs a send that fails without an outcome, and frees its place', async () => {
      const logger = new RecordingLogger();
      const dispatch = new ScriptedDispatch([async () => [Promise.reject(new Error('logger broke'))]]);
      loop = new DispatchLoop(dispatch, { intervalMs: 20, batchSize: 1 }, logger);
      loop.start();
      await sleep(70);
      expect(logger.errors[0]).to.deep.equal({ error: 'logger broke' });
      expect(dispatch.limits.slice(0, 3)).to.deep.equal([1, 1, 1]);
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
          return [];
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

    it('waits for every send in flight, claimed by earlier passes too', async () => {
      const dispatch = new HoldingDispatch();
      loop = new DispatchLoop(dispatch, { intervalMs: 10, batchSize: 2 }, new RecordingLogger());
      loop.start();
      await sleep(20);
      dispatch.sends[0]!.release();
      await sleep(20);
      expect(dispatch.limits).to.deep.equal([2, 1]);
      let stopped = false;
      const stopping = loop.stop().then(() => (stopped = true));
      setTimeout(() => dispatch.sends[1]!.release(), 30);
      setTimeout(() => dispatch.sends[2]!.release(), 60);
      await sleep(45);
      expect(stopped).to.equal(false);
      await stopping;
      expect(dispatch.inFlight).to.equal(0);
      expect(dispatch.limits).to.deep.equal([2, 1]);
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
