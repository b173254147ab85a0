/**
 * Collects log lines and hands them to the underlying stream in batches: at most every
 * `intervalMs`, or at once when `maxBytes` are waiting. A profile of the service under load
 * showed one write per request line (a file write through the thread pool, or a synchronous
 * pipe write on stdout) costing a fifth of the server's core; one write per batch costs almost
 * nothing. `flush()` hands over what is waiting, and runs on stop and at process exit. A line
 * given as its values (`writeLater`: the request log's) waits as them, in its place among the
 * others, and its text is made when the batch is handed over (decision 0845).
 */
import { LINE_SLOTS, type LineFormat, type LineOutput, type LineSlot } from '@cms/adapter-koa';

export interface LineSink {
  write(chunk: string): unknown;
}

export interface BatchOptions {
  readonly intervalMs?: number;
  readonly maxBytes?: number;
}

export class BatchedLineWriter implements LineOutput {
  /** What waits, in order: a line's text, or a line's format followed by its `LINE_SLOTS` values. */
  #pending: Array<string | LineFormat | LineSlot> = [];
  #pendingBytes = 0;
  #timer: NodeJS.Timeout | undefined;
  readonly #intervalMs: number;
  readonly #maxBytes: number;
  readonly #flushAtExit = () => this.flush();

  constructor(
    private readonly sink: LineSink,
    options: BatchOptions = {},
  ) {
    this.#intervalMs = options.intervalMs ?? 50;
    this.#maxBytes = options.maxBytes ?? 64 * 1024;
    process.on('exit', this.#flushAtExit);
  }

  write(line: string): void {
    this.#pending.push(line);
    this.#waiting(line.length);
  }

  writeLater(format: LineFormat, a: LineSlot, b: LineSlot, c: LineSlot, d: LineSlot, e: LineSlot, f: LineSlot, g: LineSlot, h: LineSlot): void {
    this.#pending.push(format, a, b, c, d, e, f, g, h);
    this.#waiting(format.estimate);
  }

  #waiting(characters: number): void {
    this.#pendingBytes += characters;
    if (this.#pendingBytes >= this.#maxBytes) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), this.#intervalMs).unref();
  }

  flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending.length === 0) return;
    const pending = this.#pending;
    this.#pending = [];
    this.#pendingBytes = 0;
    this.sink.write(textOf(pending));
  }

  /** Flushes and stops watching for process exit (the owner closes the sink). */
  detach(): void {
    this.flush();
    process.off('exit', this.#flushAtExit);
  }
}

/** The batch's text: each line's, a line kept as values written by its format. */
function textOf(pending: ReadonlyArray<string | LineFormat | LineSlot>): string {
  const lines: string[] = [];
  for (let at = 0; at < pending.length; at++) {
    const entry = pending[at]!;
    if (typeof entry === 'string') lines.push(entry);
    else {
      lines.push((entry as LineFormat).text(pending as readonly LineSlot[], at + 1));
      at += LINE_SLOTS;
    }
  }
  return lines.join('');
}
