import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { ConfigError } from '../config/env-reader.js';
import { FailoverSink, openLogOutput } from './log-output.js';

/** A stream that keeps what it is given, or fails every write with `code` once told to. */
class TestStream extends Writable {
  readonly chunks: string[] = [];
  failWith: string | undefined;

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (this.failWith === undefined) {
      this.chunks.push(chunk.toString());
      done();
    } else {
      done(Object.assign(new Error(`${this.failWith}: it failed, write`), { code: this.failWith }));
    }
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('openLogOutput', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'cms-log-output-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe('when CMS_LOG_FILE cannot be opened', () => {
    it('stops with one line naming the variable, the file and the reason', async () => {
      const missing = join(dir, 'no-such-dir', 'cms.log');
      const error = await openLogOutput(missing).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(ConfigError);
      expect((error as Error).message).to.equal(`CMS_LOG_FILE cannot be opened for appending: ${missing} (ENOENT: no such file or directory)`);
      const directory = await openLogOutput(dir).catch((e: unknown) => e);
      expect((directory as Error).message).to.equal(`CMS_LOG_FILE cannot be opened for appending: ${dir} (EISDIR: illegal operation on a directory)`);
    });
  });

  describe('when CMS_LOG_FILE can be opened', () => {
    it('appends the lines to what the file held, and has them written once closed', async () => {
      const file = join(dir, 'cms.log');
      writeFileSync(file, 'earlier\n');
      const output = await openLogOutput(file);
      output.lines.write('one\n');
      output.lines.write('two\n');
      await output.close();
      expect(readFileSync(file, 'utf8')).to.equal('earlier\none\ntwo\n');
    });
  });

  describe('when CMS_LOG_FILE fails after start-up', () => {
    // Every write to /dev/full fails with ENOSPC: a disk that filled up after the file was opened.
    before(function () {
      if (!existsSync('/dev/full')) this.skip();
    });

    it('reports it once and goes on with standard output', async () => {
      const stdout = new TestStream();
      const reports: string[] = [];
      let reported!: () => void;
      const firstReport = new Promise<void>((resolve) => (reported = resolve));
      const output = await openLogOutput('/dev/full', (line) => {
        reports.push(line);
        reported();
      }, stdout);
      output.lines.write('lost\n');
      output.lines.flush();
      await firstReport;
      for (const line of ['a\n', 'b\n']) {
        output.lines.write(line);
        output.lines.flush();
        await settle();
      }
      await output.close();
      expect(reports).to.deep.equal(['CMS_LOG_FILE: writing /dev/full failed (ENOSPC: no space left on device); log lines go to standard output from now on']);
      expect(stdout.chunks).to.deep.equal(['a\n', 'b\n']);
      expect(stdout.listenerCount('error')).to.equal(0);
    });
  });
});

describe('FailoverSink', () => {
  describe('when its target takes nothing in', () => {
    it('drops lines past the bytes it may hold, and says how many once the target drains', async () => {
      let release: (() => void) | undefined;
      const written: string[] = [];
      const stalled = new Writable({
        highWaterMark: 16,
        write(chunk: Buffer, _encoding, done) {
          written.push(chunk.toString());
          release = done; // taken in only when the test lets it
        },
      });
      const sink = new FailoverSink([{ stream: stalled, failure: 'writing failed', after: 'dropped' }], () => {}, 64);
      for (let i = 0; i < 100; i += 1) sink.write(`{"line":${String(i).padStart(3, '0')}}\n`);
      expect(stalled.writableLength, 'held, at most the limit and one chunk').to.be.at.most(64 + 14);
      while (release) {
        const done = release;
        release = undefined;
        done();
        await settle();
      }
      const lines = written.join('').trimEnd().split('\n');
      const kept = lines.filter((line) => line.startsWith('{"line"'));
      expect(kept.length).to.be.below(10);
      const report = JSON.parse(lines.at(-1)!) as { level: string; msg: string; count: number };
      expect(report).to.include({ level: 'warn', msg: 'log lines dropped while the log output took nothing in' });
      expect(report.count + kept.length).to.equal(100);
    });
  });

  describe('when its target fails', () => {
    it('reports the first failure only, then writes to the next target, and drops lines once none is left', async () => {
      const file = new TestStream();
      const stdout = new TestStream();
      const reports: string[] = [];
      const sink = new FailoverSink(
        [
          { stream: file, failure: 'CMS_LOG_FILE: writing /var/log/cms.log failed', after: 'log lines go to standard output from now on' },
          { stream: stdout, failure: 'writing log lines to standard output failed', after: 'they are dropped from now on' },
        ],
        (line) => reports.push(line),
      );
      sink.write('kept\n');
      file.failWith = 'ENOSPC';
      sink.write('lost\n');
      await settle();
      sink.write('moved\n');
      file.emit('error', new Error('EIO: a late report of the failed file'));
      await settle();
      expect(file.chunks).to.deep.equal(['kept\n']);
      expect(stdout.chunks).to.deep.equal(['moved\n']);
      stdout.failWith = 'EPIPE';
      sink.write('lost too\n');
      await settle();
      sink.write('dropped\n');
      await settle();
      expect(reports).to.deep.equal([
        'CMS_LOG_FILE: writing /var/log/cms.log failed (ENOSPC: it failed); log lines go to standard output from now on',
        'writing log lines to standard output failed (EPIPE: it failed); they are dropped from now on',
      ]);
    });

    it('takes a write that throws for a failure too', () => {
      const reports: string[] = [];
      const throwing = Object.assign(new Writable(), {
        write: () => {
          throw new Error('ERR_STREAM_WRITE_AFTER_END: write after end');
        },
      });
      const sink = new FailoverSink([{ stream: throwing, failure: 'writing failed', after: 'dropped' }], (line) => reports.push(line));
      expect(() => sink.write('x\n')).not.to.throw();
      expect(reports).to.deep.equal(['writing failed (ERR_STREAM_WRITE_AFTER_END: write after end); dropped']);
    });
  });

  describe('when detached', () => {
    it('stops listening for the errors of its targets', () => {
      const stdout = new TestStream();
      const before = stdout.listenerCount('error');
      const sink = new FailoverSink([{ stream: stdout, failure: 'f', after: 'a' }], () => {});
      expect(stdout.listenerCount('error')).to.equal(before + 1);
      sink.detach();
      expect(stdout.listenerCount('error')).to.equal(before);
    });
  });
});
