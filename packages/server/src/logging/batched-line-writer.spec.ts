import { expect } from 'chai';
import sinon from 'sinon';
import { LINE_SLOTS, type LineFormat, type LineSlot } from '@cms/adapter-koa';
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

  describe('when a line is given as its values (writeLater)', () => {
    /** A format that writes its `LINE_SLOTS` values joined by `|`, and counts the texts it made. */
    const joined = (estimate: number): LineFormat & { made: number } => {
      const format = {
        estimate,
        made: 0,
        text(slots: readonly LineSlot[], at: number) {
          format.made += 1;
          return `${slots.slice(at, at + LINE_SLOTS).join('|')}\n`;
        },
      };
      return format;
    };

    it('makes its text only when the batch is handed over, in its place among the lines written', () => {
      const format = joined(1);
      writer.write('a\n');
      writer.writeLater(format, 1, 'x', null, 4, 5, 6, 7, 'eight');
      writer.write('b\n');
      writer.writeLater(format, 'n', 2, 3, 4, 5, 6, 7, 8);
      expect(format.made).to.equal(0);
      clock.tick(50);
      expect(chunks).to.deep.equal(['a\n1|x||4|5|6|7|eight\nb\nn|2|3|4|5|6|7|8\n']);
      expect(format.made).to.equal(2);
    });

    it('counts its estimate towards maxBytes', () => {
      writer.writeLater(joined(12), 1, 2, 3, 4, 5, 6, 7, 8);
      expect(chunks).to.deep.equal([]);
      writer.writeLater(joined(12), 8, 7, 6, 5, 4, 3, 2, 1);
      expect(chunks).to.deep.equal(['1|2|3|4|5|6|7|8\n8|7|6|5|4|3|2|1\n']);
    });
  });
});
