/**
 * HTTP/1.1 over a raw socket, for tests of what a library client hides: answers given while the
 * body is still being sent, `Expect: 100-continue`, half-closed and reset connections, slow
 * clients. One response at a time; enough parsing for status, headers and a content-length body.
 */
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** Every status line received, interim ones (100 Continue) included, in order. */
  readonly statusLines: readonly string[];
}

/** A connection that can send requests and read responses one after another. */
export class RawConnection {
  readonly socket: Socket;
  #buffer = Buffer.alloc(0);
  #waiters: Array<() => void> = [];
  #ended = false;
  /** The first socket error (EPIPE, ECONNRESET, …), if any. */
  error: (Error & { code?: string }) | undefined;
  /** When the server's side ended or the socket closed (ms since the epoch). */
  closedAt: number | undefined;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      this.#wake();
    });
    const ended = () => {
      this.#ended = true;
      this.closedAt ??= Date.now();
      this.#wake();
    };
    socket.on('end', ended);
    socket.on('close', ended);
    socket.on('error', (error: Error & { code?: string }) => {
      this.error ??= error;
      ended();
    });
  }

  static open(port: number, host = '127.0.0.1'): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, host, () => {
        socket.off('error', reject);
        resolve(new RawConnection(socket));
      });
      socket.once('error', reject);
    });
  }

  /** Writes without waiting; a write error is kept in `error`, not thrown. */
  write(data: string | Buffer): boolean {
    if (this.socket.destroyed) return false;
    return this.socket.write(data, () => {});
  }

  /** Writes `total` bytes of `fill` in chunks, respecting back-pressure, until done or the socket breaks. */
  async writeBody(total: number, chunkSize = 64 * 1024): Promise<number> {
    const chunk = Buffer.alloc(chunkSize, 0x20);
    let sent = 0;
    while (sent < total && !this.socket.destroyed && this.error === undefined) {
      const size = Math.min(chunkSize, total - sent);
      const ok = this.write(size === chunkSize ? chunk : chunk.subarray(0, size));
      sent += size;
      if (!ok) await new Promise<void>((resolve) => {
        const done = () => {
          this.socket.off('drain', done);
          this.socket.off('close', done);
          resolve();
        };
        this.socket.once('drain', done);
        this.socket.once('close', done);
      });
    }
    return sent;
  }

  /** The next complete response (after any interim ones); rejects when the connection ends first or after `timeoutMs`. */
  async response(timeoutMs = 10_000): Promise<RawResponse> {
    const deadline = Date.now() + timeoutMs;
    const statusLines: string[] = [];
    for (;;) {
      const parsed = this.#take(statusLines);
      if (parsed) return parsed;
      if (this.#ended) throw Object.assign(new Error(`connection ended before a full response (${this.error?.code ?? 'closed'}); got: ${statusLines.join(' | ')}`), { code: this.error?.code ?? 'CLOSED' });
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no full response within ${timeoutMs} ms; got: ${statusLines.join(' | ')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The first line the server sent, as soon as it is there (for `100 Continue` checks). */
  async firstLine(timeoutMs = 5000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (this.#buffer.indexOf('\r\n') < 0) {
      if (this.#ended || Date.now() > deadline) throw new Error('no status line');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 20);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.#buffer.subarray(0, this.#buffer.indexOf('\r\n')).toString('latin1');
  }

  /** Resolves with the time the connection ended (server FIN, reset or close), or undefined after `timeoutMs`. */
  async ended(timeoutMs: number): Promise<number | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (!this.#ended && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(50, deadline - Date.now()));
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.closedAt;
  }

  close(): void {
    this.socket.destroy();
  }

  #wake(): void {
    for (const wake of this.#waiters.splice(0)) wake();
  }

  #take(statusLines: string[]): RawResponse | undefined {
    for (;;) {
      const headEnd = this.#buffer.indexOf('\r\n\r\n');
      if (headEnd < 0) return undefined;
      const lines = this.#buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0]!)?.[1]);
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      if (status >= 100 && status < 200) {
        statusLines.push(lines[0]!);
        this.#buffer = this.#buffer.subarray(headEnd + 4);
        continue;
      }
      const length = Number(headers['content-length'] ?? 0);
      if (this.#buffer.length < headEnd + 4 + length) return undefined;
      statusLines.push(lines[0]!);
      const body = this.#buffer.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
      this.#buffer = this.#buffer.subarray(headEnd + 4 + length);
      return { status, headers, body, statusLines };
    }
  }
}

/** A request head: request line, `host`, the given headers, the blank line. */
export function requestHead(method: string, path: string, headers: Record<string, string | number>): string {
  return `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
}
