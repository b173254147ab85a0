/**
 * Answers given before the request body was read (over the size limit, refused at the
 * credentials, access or media-type step) must reach the client. Closing a socket while the
 * client's bytes are still unread makes the kernel send a TCP reset, and the reset destroys the
 * answer in the client's buffer before it is read: the client sees "connection reset" or
 * "broken pipe" instead of its 4xx envelope.
 *
 * So, like Go's net/http and nginx's lingering close:
 * - a body that will end within `drainLimitBytes` (declared length) is read and discarded, never
 *   buffered, and the connection stays usable; the drain is bounded in time by the request
 *   timeout (the server's `requestTimeout` cuts a client that trickles);
 * - anything else (a longer or chunked body, or a request with an `Expect` that was never told to
 *   continue, whose body may never come) is answered with `Connection: close`; once the
 *   answer is written the socket is half-closed (FIN), what still arrives is discarded for
 *   `lingerMs`, and then the socket is destroyed: a client that keeps sending is cut off then.
 *
 * `Expect: 100-continue` (RFC 9110 §10.1.1): the server listens for `checkContinue`, so Node
 * sends no `100 Continue` by itself; the body reader sends it (`continueIfExpected`) when the
 * pipeline reaches the body step. Every refusal before that step is the final answer.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

export interface EarlyAnswerPolicy {
  /** The most of an unread body read and discarded to keep the connection. */
  readonly drainLimitBytes: number;
  /** How long a closing socket keeps discarding after its answer before it is destroyed. */
  readonly lingerMs: number;
}

/** 4 MiB drained, 1 s linger (decision 0710). */
export const DEFAULT_EARLY_ANSWERS: EarlyAnswerPolicy = { drainLimitBytes: 4 * 1024 * 1024, lingerMs: 1000 };

/** Sockets whose answer is written while their request body is still arriving (for `answerClientError`). */
const answered = new WeakSet<object>();

/** Whether this socket already carries an answer for its current request: nothing more may be written to it. */
export function isAnsweredEarly(socket: object): boolean {
  return answered.has(socket);
}

/** Sends `100 Continue` once, when the client asked for it and no answer has started. */
export function continueIfExpected(req: IncomingMessage, res: ServerResponse): void {
  if (expectsContinue(req) && !res.headersSent && !continued.has(req)) {
    continued.add(req);
    res.writeContinue();
  }
}

const continued = new WeakSet<IncomingMessage>();

function expectsContinue(req: IncomingMessage): boolean {
  const expect = req.headers.expect;
  return expect !== undefined && expect.toLowerCase() === '100-continue';
}

/**
 * Called just before the answer is written, when the request body has not been read to its end.
 * Decides between draining (keep the connection) and a lingering close, and arranges it.
 */
export function settleUnreadBody(req: IncomingMessage, res: ServerResponse, policy: EarlyAnswerPolicy): 'drain' | 'linger' {
  const socket = req.socket;
  answered.add(socket);
  // Read (and drop) whatever arrives from now on; Node would otherwise `_dump` it only when it
  // keeps the connection, and close with the bytes unread when it does not.
  req.on('data', discard);
  // A body reader that gave up paused it, or left it piped into a decoder (gzip) that stopped
  // reading: the pipe's back-pressure would pause it again as soon as the decoder filled, and the
  // rest of the body, and the next request on the connection, would wait for the request timeout.
  req.unpipe();
  req.resume();
  req.once('end', () => answered.delete(socket));
  const declared = Number(req.headers['content-length']);
  // A client that expects something (100-continue, or what the service refused 417) may wait for
  // a word before it sends its body; only one told to continue will send it.
  const bodyWillComeAndEnd = req.headers.expect === undefined || continued.has(req);
  // An answer that closes anyway (the service is draining) gets the lingering close, not a drain.
  const keepsConnection = res.getHeader('connection') !== 'close';
  if (keepsConnection && bodyWillComeAndEnd && Number.isSafeInteger(declared) && declared <= policy.drainLimitBytes) {
    res.removeHeader('connection');
    return 'drain';
  }
  res.setHeader('connection', 'close');
  lingerOnClose(socket, policy.lingerMs);
  return 'linger';
}

function discard(): void {}

/**
 * Node ends a `Connection: close` socket with `destroySoon()` once the answer is written: write
 * the FIN, then destroy. This socket instead half-closes, keeps reading for `lingerMs` (or until
 * the client closes its side), then is destroyed.
 */
function lingerOnClose(socket: Socket, lingerMs: number): void {
  socket.destroySoon = function lingeringClose(this: Socket) {
    this.end();
    this.resume();
    const timer = setTimeout(() => this.destroy(), lingerMs);
    timer.unref();
    this.once('end', () => this.destroy());
    this.once('close', () => clearTimeout(timer));
  };
}

/**
 * Fails loudly at start-up if `net.Socket` loses `destroySoon`, the method Node's HTTP server
 * ends `Connection: close` sockets with and `lingerOnClose` replaces per socket. (The e2e suite
 * `early-answers.int.spec` proves the whole path on every run.)
 */
export function assertLingeringCloseSupported(): void {
  if (typeof Socket.prototype.destroySoon !== 'function') {
    throw new Error('node:net Socket.prototype.destroySoon is gone: early answers would be reset (see adapter-koa early-answers.ts)');
  }
}
