/**
 * A Logger that writes one JSON object per line to a line sink. It buffers nothing itself: a
 * write to a file or a terminal can block, so the server hands it a `BatchedLineWriter`
 * (server/src/logging), which collects lines and writes them in batches.
 */
import type { Logger } from '@cms/core';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const RANK: Record<LogLevel, number> = { debug: -1, info: 0, warn: 1, error: 2 };

export class JsonLineLogger implements Logger {
  constructor(
    private readonly out: { write(line: string): unknown },
    private readonly minimum: LogLevel = 'info',
  ) {}

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

/** The current time in ISO 8601; formatted once per millisecond, however many lines share it. */
function isoNow(): string {
  const now = Date.now();
  if (now !== lastMillis) {
    lastMillis = now;
    lastIso = new Date(now).toISOString();
  }
  return lastIso;
}
