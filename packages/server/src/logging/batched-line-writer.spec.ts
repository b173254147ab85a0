import { expect } from 'chai';
import sinon from 'sinon';
import { BatchedLineWriter } from './batched-line-writer.js';

describe('BatchedLineWriter', () => {
  let clock: sinon.SinonFakeTimers;
  let chunks: string[];
  let writer: BatchedLineWriter;
  beforeEach(() => {
    clock = sinon.useFakeTimers();
    chunks = [];
    writer = new BatchedLineWriter({ write: (chunk) => chunks.push(chunk) }, { intervalMs: 50, maxBytes: 20 });
  });
  afterEach(() => {
    writer.detach();
    clock.restore();
  });

  describe('when lines arrive within the interval', () => {
    it('hands them over as one chunk, in order, once the interval has passed', () => {
      writer.write('a\n');
      writer.write('b\n');
      expect(chunks).to.deep.equal([]);
      clock.tick(50);
      expect(chunks).to.deep.equal(['a\nb\n']);
    });
  });

  describe('when the waiting lines reach maxBytes', () => {
    it('hands them over at once, without waiting for the timer', () => {
      writer.write('0123456789\n');
      writer.write('0123456789\n');
      expect(chunks).to.deep.equal(['0123456789\n0123456789\n']);
      clock.tick(50);
      expect(chunks).to.have.length(1);
    });
  });

  describe('when flushed or detached', () => {
    it('hands over what is waiting and writes nothing when nothing waits', () => {
      writer.write('last\n');
      writer.detach();
      writer.flush();
      expect(chunks).to.deep.equal(['last\n']);
    });

    it('stops listening for process exit once detached', () => {
      const before = process.listenerCount('exit');
      const other = new BatchedLineWriter({ write: () => {} });
      expect(process.listenerCount('exit')).to.equal(before + 1);
      other.detach();
      expect(process.listenerCount('exit')).to.equal(before);
    });
  });
});
