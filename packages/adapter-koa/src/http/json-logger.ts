/**
 * A Logger that writes one JSON object per line to a line sink. It buffers nothing itself: a
 * write to a file or a terminal can block, so the server hands it a `BatchedLineWriter`
 * (server/src/logging), which collects lines and writes them in batches. The edge's one line
 * per request (`request`) goes to such a sink as its values, and its text is written with the
 * batch (decision 0845).
 */
import type { Logger } from '@cms/core';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const RANK: Record<LogLevel, number> = { debug: -1, info: 0, warn: 1, error: 2 };

/** One value of a line whose text is written later. */
export type LineSlot = string | number | null;

/** How many values a line written later has (`LineOutput.writeLater`). */
export const LINE_SLOTS = 8;

/** How a line kept as its values is written: `text` reads the `LINE_SLOTS` values from `slots[at]` on. */
export interface LineFormat {
  /** About how many characters the line takes: a batch's size counts it so. */
  readonly estimate: number;
  text(slots: readonly LineSlot[], at: number): string;
}

/** Where a `JsonLineLogger` writes. */
export interface LineOutput {
  write(line: string): unknown;
  /**
   * Keeps a line as its values, in order among the lines written, and writes its text when the
   * batch is handed over: one loop over a batch's lines costs a small part of what the same
   * formatting costs spread over as many requests (decision 0845).
   */
  writeLater?(format: LineFormat, a: LineSlot, b: LineSlot, c: LineSlot, d: LineSlot, e: LineSlot, f: LineSlot, g: LineSlot, h: LineSlot): void;
}

/**
 * The request log line: `{"time":…,"level":"info","msg":"request","method":…,"route":…,"status":…,
 * "durationMs":…,"requestId":…,"traceId":…,"tenant":…}`, the text `info('request', fields)`
 * writes for those fields, from its time (ms since the epoch) and the seven values in order.
 */
const REQUEST_LINE: LineFormat = {
  estimate: 256,
  text: (slots, at) =>
    `{"time":"${isoAt(slots[at] as number)}","level":"info","msg":"request","method":${jsonValue(slots[at + 1])},"route":${jsonValue(slots[at + 2])},"status":${jsonValue(slots[at + 3])},"durationMs":${jsonValue(slots[at + 4])},"requestId":${jsonValue(slots[at + 5])},"traceId":${jsonValue(slots[at + 6])},"tenant":${jsonValue(slots[at + 7])}}\n`,
};

export class JsonLineLogger implements Logger {
  constructor(
    private readonly out: LineOutput,
    private readonly minimum: LogLevel = 'info',
  ) {}

  /** The edge's one line per request: the text `info('request', { method, route, … })` writes, the values read now, the text made with the batch where `out` can. */
  request(method: string, route: string | null, status: number, durationMs: number, requestId: string, traceId: string, tenant: string | null): void {
    if (RANK.info < RANK[this.minimum]) return;
    if (this.out.writeLater) this.out.writeLater(REQUEST_LINE, Date.now(), method, route, status, durationMs, requestId, traceId, tenant);
    else this.out.write(REQUEST_LINE.text([Date.now(), method, route, status, durationMs, requestId, traceId, tenant], 0));
  }

  debug(message: string, fields?: Record<string, unknown>): void {
    this.#write('debug', message, fields);
  }

  info(message: string, fields?: Record<string, unknown>): void {
    this.#write('info', message, fields);
  }

  warn(message: string, fields?: Record<string, unknown>): void {
    this.#write('warn', message, fields);
  }

  error(message: string, fields?: Record<string, unknown>): void {
    this.#write('error', message, fields);
  }

  #write(level: LogLevel, message: string, fields: Record<string, unknown> | undefined): void {
    if (RANK[level] < RANK[this.minimum]) return;
    // Built by hand rather than JSON.stringify({time, level, msg, ...fields}): one line per
    // request made this the largest cost of ours in the benchmark's profile.
    this.out.write(`{"time":"${isoNow()}","level":"${level}","msg":${jsonValue(message)}${fields === undefined ? '' : jsonMembers(fields)}}\n`);
  }
}

// What JSON.stringify would write for these strings is the string in quotes: nothing to escape.
const PLAIN_STRING = /^[\w .,:;/@+=()[\]{}<>!?#$%&*~^|-]*$/;

/**
 * `,"key":value` for each field, as JSON.stringify writes them; request-log fields (short
 * plain strings and numbers) skip the general serializer, a measurable cost per property
 * (docs/performance-log.md).
 */
function jsonMembers(fields: Record<string, unknown>): string {
  let out = '';
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    out += `${memberPrefix(key)}${jsonValue(value)}`;
  }
  return out;
}

// Field names repeat on every line (the request log's seven): their `,"name":` is written once.
const prefixes = new Map<string, string>();
const MAX_PREFIXES = 512;

function memberPrefix(key: string): string {
  let prefix = prefixes.get(key);
  if (prefix === undefined) {
    prefix = `,${jsonValue(key)}:`;
    if (prefixes.size < MAX_PREFIXES) prefixes.set(key, prefix);
  }
  return prefix;
}

function jsonValue(value: unknown): string {
  if (typeof value === 'string') return PLAIN_STRING.test(value) ? `"${value}"` : JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (value === null || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

let lastMillis = 0;
let lastIso = '';

/** The current time in ISO 8601. */
function isoNow(): string {
  return isoAt(Date.now());
}

/** A time in ISO 8601; formatted once per millisecond, however many lines in a row share it. */
function isoAt(millis: number): string {
  if (millis !== lastMillis) {
    lastMillis = millis;
    lastIso = new Date(millis).toISOString();
  }
  return lastIso;
}
