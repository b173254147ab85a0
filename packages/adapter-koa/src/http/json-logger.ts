/**
 * A Logger that writes one JSON object per line to a stream. Writes are buffered by the stream,
 * so logging never waits on the disk or the terminal.
 */
import type { Logger } from '@cms/core';

export type LogLevel = 'info' | 'warn' | 'error';
const RANK: Record<LogLevel, number> = { info: 0, warn: 1, error: 2 };

export class JsonLineLogger implements Logger {
  constructor(
    private readonly out: { write(line: string): unknown },
    private readonly minimum: LogLevel = 'info',
  ) {}

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
    this.out.write(`${JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields })}\n`);
  }
}
