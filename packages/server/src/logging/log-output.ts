/**
 * Where the service's own log lines go, in batches: to CMS_LOG_FILE, opened for appending before
 * the service starts anything else, or to standard output. A file that cannot be opened stops
 * start-up with one line naming CMS_LOG_FILE. A write that fails later (disk full, a file system
 * gone read-only, a closed pipe) never stops the service: it is reported once on standard error
 * and the lines go on to standard output, or, when that is what failed, are dropped.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { errorText } from '@cms/core/internal';
import { ConfigError } from '../config/env-reader.js';
import { BatchedLineWriter, type LineSink } from './batched-line-writer.js';

export interface LogOutput {
  readonly lines: BatchedLineWriter;
  /** Flushes, closes the file, and stops listening for errors of standard output. */
  close(): Promise<void>;
}

/** Writes one line where an operator looks when the logs themselves fail: standard error. */
export type FailureReport = (line: string) => void;

const toStderr: FailureReport = (line) => process.stderr.write(`${line}\n`);

export async function openLogOutput(file: string | undefined, report: FailureReport = toStderr, stdout: Writable = process.stdout): Promise<LogOutput> {
  const stream = file === undefined ? undefined : await openForAppending(file);
  const stdoutTarget: SinkTarget = { stream: stdout, failure: 'writing log lines to standard output failed', after: 'they are dropped from now on' };
  const sink = new FailoverSink(
    stream ? [{ stream, failure: `CMS_LOG_FILE: writing ${file} failed`, after: 'log lines go to standard output from now on' }, stdoutTarget] : [stdoutTarget],
    report,
  );
  const lines = new BatchedLineWriter(sink);
  return {
    lines,
    close: async () => {
      lines.detach();
      if (stream) await new Promise<void>((resolve) => stream.end(() => resolve()));
      sink.detach();
    },
  };
}

async function openForAppending(file: string): Promise<Writable> {
  const stream = createWriteStream(file, { flags: 'a' });
  try {
    await once(stream, 'open');
    return stream;
  } catch (error) {
    throw new ConfigError('CMS_LOG_FILE', `cannot be opened for appending: ${file} (${systemReason(error)})`);
  }
}

export interface SinkTarget {
  readonly stream: Writable;
  /** How the report begins: `CMS_LOG_FILE: writing /var/log/cms.log failed`. */
  readonly failure: string;
  /** What becomes of the lines once this target has failed. */
  readonly after: string;
}

/** Bytes a log target may hold unwritten before lines are dropped (a few seconds of a busy service's log). */
export const LOG_BUFFER_MAX_BYTES = 16 * 1024 * 1024;

/** Writes to the first target that has not failed; a target's first failure is reported, once. */
export class FailoverSink implements LineSink {
  #current = 0;
  readonly #listeners: Array<() => void> = [];
  /** Lines dropped since the target stopped taking them in. */
  #dropped = 0;
  #awaitingDrain = false;

  constructor(
    private readonly targets: readonly SinkTarget[],
    private readonly report: FailureReport,
    private readonly maxBuffered = LOG_BUFFER_MAX_BYTES,
  ) {
    targets.forEach((target, index) => {
      const onError = (error: unknown) => this.#fail(index, error);
      target.stream.on('error', onError);
      this.#listeners.push(() => target.stream.off('error', onError));
    });
  }

  write(chunk: string): void {
    const index = this.#current;
    const target = this.targets[index];
    if (target === undefined) return;
    // A target that takes nothing in (a pipe whose reader stopped, a stalled disk) would hold every
    // line in memory: past `maxBuffered` waiting bytes lines are dropped and counted, and the count
    // is written once the target drains.
    if (target.stream.writableLength > this.maxBuffered) {
      this.#dropped += countLines(chunk);
      if (!this.#awaitingDrain) {
        this.#awaitingDrain = true;
        target.stream.once('drain', () => this.#reportDropped());
      }
      return;
    }
    try {
      target.stream.write(chunk);
    } catch (error) {
      this.#fail(index, error);
    }
  }

  #reportDropped(): void {
    this.#awaitingDrain = false;
    const count = this.#dropped;
    this.#dropped = 0;
    if (count > 0) this.write(`{"time":"${new Date().toISOString()}","level":"warn","msg":"log lines dropped while the log output took nothing in","count":${count}}\n`);
  }

  /** Stops listening for the targets' errors (standard output outlives this service). */
  detach(): void {
    for (const off of this.#listeners.splice(0)) off();
  }

  #fail(index: number, error: unknown): void {
    // A stream may report more than once (each write after the first failure), and a target
    // already left behind may still report a write it had taken.
    if (index !== this.#current) return;
    this.#current += 1;
    const target = this.targets[index]!;
    this.report(`${target.failure} (${systemReason(error)}); ${target.after}`);
  }
}

function countLines(chunk: string): number {
  let count = 0;
  for (let at = chunk.indexOf('\n'); at !== -1; at = chunk.indexOf('\n', at + 1)) count += 1;
  return count;
}

/** `ENOSPC: no space left on device` out of Node's `ENOSPC: no space left on device, write`. */
function systemReason(error: unknown): string {
  const message = errorText(error);
  return /^([A-Z][A-Z0-9_]*: [^,]*)/.exec(message)?.[1] ?? message;
}
