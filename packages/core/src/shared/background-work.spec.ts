import { expect } from 'chai';
import { signal } from '../testing/held-calls.js';
import { TrackedWork, UNTRACKED_WORK } from './background-work.js';

describe('Background work', () => {
  describe('TrackedWork', () => {
    it('settles only once every task has finished, also one started while it waited', async () => {
      const work = new TrackedWork();
      const first = signal();
      const second = signal();
      const finished: string[] = [];
      work.start(async () => {
        await first.promise;
        finished.push('first');
        work.start(async () => {
          await second.promise;
          finished.push('second');
        });
      });
      let settled = false;
      const waiting = work.settled().then(() => (settled = true));
      expect(work.size).to.equal(1);
      first.fire();
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect([settled, finished, work.size]).to.deep.equal([false, ['first'], 1]);
      second.fire();
      await waiting;
      expect([finished, work.size]).to.deep.equal([['first', 'second'], 0]);
    });

    it('counts a failed task as finished, and never rejects', async () => {
      const work = new TrackedWork();
      work.start(async () => Promise.reject(new Error('store down')));
      work.start(() => {
        throw new Error('thrown before any await');
      });
      await work.settled();
      expect(work.size).to.equal(0);
    });
  });

  describe('UNTRACKED_WORK', () => {
    it('runs the task on a later tick, not before returning', async () => {
      const ran = signal();
      let running = false;
      UNTRACKED_WORK.start(async () => {
        running = true;
        ran.fire();
      });
      expect(running).to.equal(false);
      await ran.promise;
      expect(running).to.equal(true);
    });

    it('drops a failure that escapes the task instead of leaving an unhandled rejection', async () => {
      const unhandled: unknown[] = [];
      const record = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', record);
      try {
        UNTRACKED_WORK.start(async () => Promise.reject(new Error('store down')));
        await new Promise((resolve) => setTimeout(resolve, 10));
      } finally {
        process.off('unhandledRejection', record);
      }
      expect(unhandled).to.deep.equal([]);
    });
  });
});
