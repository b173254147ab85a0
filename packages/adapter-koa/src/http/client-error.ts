/**
 * Requests Node's HTTP server refuses before any middleware runs (a request head over 16 KiB,
 * a malformed request line, a client slower than the headers or request timeout) are answered
 * in the envelope too, instead of Node's bare answers with no body. Found by the fuzz suite: a
 * 16 KB path got a body-less 431. A head over the limit whose request line, as far as it
 * arrived in the refused bytes, holds a target longer than the routes take is answered 414, as
 * the routes answer a shorter one (decision 0831). A socket whose request was already answered
 * (its body was being drained) gets nothing more: it is closed.
 *
 * A request already being served when Node gives up on it (its body still arriving when the
 * request timeout expires, or malformed) is answered through its own response instead of with
 * bytes written on the socket: that response already carries what the request's layers set (its
 * request id, the common and CORS headers), and its log line, metrics count and span then say
 * the status it got (decision 0777). A request that arrived whole keeps its own answer when one
 * pipelined behind it is refused: the refusal follows it. Node links a socket to its response only internally
 * (`_httpMessage`), so a start-up check fails loudly if that link goes away.
 *
 * An answer written on the socket has its request log line written here (the edge writes the
 * others): the method and path when the bytes Node refused begin with the request line (the
 * path without its query, which may hold a CAPTCHA token), the status, the answer's request id;
 * no tenant, and nothing of the headers (decision 0802). It is counted in `http_requests_total`
 * under the route `unmatched`, and not timed (decision 0816).
 */
import { randomUUID } from 'node:crypto';
import { IncomingMessage, METHODS, ServerResponse, STATUS_CODES } from 'node:http';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '@cms/core';
import { DEFAULT_EARLY_ANSWERS, isAnsweredEarly, settleUnreadBody, type EarlyAnswerPolicy } from './early-answers.js';
import { errorEnvelope } from './envelope.js';
import { ERROR_TABLE } from './error-table.js';
import { MAX_REQUEST_TARGET } from './request-head.js';
import { UNKNOWN_METHOD, type ServiceMetrics } from './service-metrics.js';

const CLIENT_ERRORS: Readonly<Record<string, readonly [number, string]>> = {
  HPE_HEADER_OVERFLOW: [431, 'Request header fields too large'],
  // Node's headersTimeout / requestTimeout (CONTRACT §8 slow clients).
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timeout'],
};

/** The routes' own answer to a target over `MAX_REQUEST_TARGET`. */
const URI_TOO_LONG = [ERROR_TABLE.URI_TOO_LONG.status, ERROR_TABLE.URI_TOO_LONG.message!] as const;

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export type ClientErrorListener = (error: Error & { code?: string }, socket: Duplex) => void;

/** The `clientError` listener of a server serving a `createApp` app with the default early-answer policy. */
export const answerClientError: ClientErrorListener = clientErrorAnswerer(DEFAULT_EARLY_ANSWERS);

/** Where an answer written on the socket is recorded: the request log and the metrics, each when there is one. */
interface AnswerRecords {
  readonly requestLogger: Logger | undefined;
  readonly metrics: ServiceMetrics | undefined;
}

/**
 * The server's `clientError` listener; `policy` says how an answered request's unread body is
 * settled, `requestLogger` gets the request log line of an answer written on the socket and
 * `metrics` counts it.
 */
export function clientErrorAnswerer(policy: EarlyAnswerPolicy, requestLogger?: Logger, metrics?: ServiceMetrics): ClientErrorListener {
  const records: AnswerRecords = { requestLogger, metrics };
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable || isAnsweredEarly(socket)) {
      socket.destroy();
      return;
    }
    const [status, message] = (error.code !== undefined && Object.hasOwn(CLIENT_ERRORS, error.code) && CLIENT_ERRORS[error.code]) || [400, 'Bad request'];
    const res = inFlightResponse(socket);
    if (res === undefined) {
      const line = requestLineOf(error);
      const [given, words] = error.code === 'HPE_HEADER_OVERFLOW' && line.targetLength > MAX_REQUEST_TARGET ? URI_TOO_LONG : [status, message];
      recordAnswer(records, answerOnSocket(socket, given, words), line);
    }
    // The request being served arrived whole: the error is a later request's on the connection.
    else if (res.req.complete) answerAfter(res, socket, status, message, records);
    // Part of an answer is out already: nothing else can be said on this connection.
    else if (res.headersSent) socket.destroy();
    else answerInFlight(res, status, message, policy);
  };
}

/** Connections whose refusal waits for the answer of the request before it. */
const answeringAfter = new WeakSet<Duplex>();

/**
 * A pipelined request Node refuses (malformed, its head too large) behind one still being served:
 * that one's answer goes out first, as its own (a delete that was done is not answered 400), then
 * the refusal, then the connection closes (the parser cannot go on). Node reports the same
 * broken bytes again if more arrive: the refusal is written once.
 */
function answerAfter(res: ServerResponse, socket: Duplex, status: number, message: string, records: AnswerRecords): void {
  if (answeringAfter.has(socket)) return;
  answeringAfter.add(socket);
  res.once('finish', () => {
    // The refused bytes begin with the served request's: the refused one's method and path are not known.
    if (socket.writable) recordAnswer(records, answerOnSocket(socket, status, message), UNKNOWN_REQUEST_LINE);
    else socket.destroy();
  });
}

interface SocketAnswer {
  readonly status: number;
  readonly requestId: string;
}

/** No request is being served on this connection (its head is incomplete or malformed). */
function answerOnSocket(socket: Duplex, status: number, message: string): SocketAnswer {
  const body = JSON.stringify(errorEnvelope(status, message));
  const requestId = randomUUID();
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      `content-type: ${JSON_CONTENT_TYPE}\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\n` +
      `x-request-id: ${requestId}\r\n` +
      'x-content-type-options: nosniff\r\n' +
      'cache-control: no-store\r\n' +
      'connection: close\r\n\r\n' +
      body,
  );
  return { status, requestId };
}

interface RequestLine {
  readonly method: string | null;
  readonly path: string | null;
  /** Characters of the target (path and query) seen; 0 when no request line is. */
  readonly targetLength: number;
}

const UNKNOWN_REQUEST_LINE: RequestLine = { method: null, path: null, targetLength: 0 };
/** A request line's method, path and query. */
const REQUEST_START = String.raw`^([A-Z][A-Z0-9_-]{0,31}) ([^\s?]+)(\?\S*)?`;
const REQUEST_LINE = new RegExp(String.raw`${REQUEST_START} HTTP\/1\.[01]\r?$`);
/** A request line the refused bytes end inside of (in its target, or in the version after it): a head that overflowed there. */
const UNENDED_REQUEST_LINE = new RegExp(String.raw`${REQUEST_START}(?: [A-Z0-9/.]{0,8})?$`);
const LOGGED_PATH_LENGTH = 256;

/**
 * The method, path and target length of the request Node refused, when the bytes it hands over
 * (`rawPacket`, the last chunk read) begin with its request line, whole or cut off before its
 * end; a head that arrived in several chunks, a timeout (no bytes) or a line that is not HTTP
 * give none.
 */
function requestLineOf(error: Error): RequestLine {
  const packet = (error as { rawPacket?: unknown }).rawPacket;
  if (!Buffer.isBuffer(packet)) return UNKNOWN_REQUEST_LINE;
  const end = packet.indexOf(0x0a);
  const match = end < 0 ? UNENDED_REQUEST_LINE.exec(packet.toString('latin1')) : REQUEST_LINE.exec(packet.toString('latin1', 0, end));
  if (match === null) return UNKNOWN_REQUEST_LINE;
  const path = match[2]!;
  return {
    method: match[1]!,
    path: path.length > LOGGED_PATH_LENGTH ? `${path.slice(0, LOGGED_PATH_LENGTH)}…` : path,
    targetLength: path.length + (match[3]?.length ?? 0),
  };
}

/** Methods Node's parser knows: the only method labels an answer written on the socket may add. */
const KNOWN_METHODS: ReadonlySet<string> = new Set(METHODS);

/**
 * The request log line of an answer written on the socket (the fields of the edge's line, and
 * the path) and its count. The count's labels are bounded whatever bytes came: the route is
 * `unmatched`, the method one Node knows or `unknown`.
 */
function recordAnswer({ requestLogger, metrics }: AnswerRecords, answer: SocketAnswer, line: RequestLine): void {
  metrics?.countSocketAnswer(line.method !== null && KNOWN_METHODS.has(line.method) ? line.method : UNKNOWN_METHOD, answer.status);
  requestLogger?.info('request', {
    method: line.method,
    route: null,
    path: line.path,
    status: answer.status,
    durationMs: null,
    requestId: answer.requestId,
    traceId: null,
    tenant: null,
  });
}

/**
 * The request is being served: its response gets the answer, with the headers its layers have
 * set. The rest of its body is not waited for: the connection closes after a linger, like any
 * answer given before the body was read. Koa reads the status of a sent response for `ctx.status`,
 * so the edge logs and counts this one; it does so when the request's pipeline ends.
 */
function answerInFlight(res: ServerResponse, status: number, message: string, policy: EarlyAnswerPolicy): void {
  const req = res.req;
  res.setHeader('connection', 'close');
  settleUnreadBody(req, res, policy);
  const body = JSON.stringify(errorEnvelope(status, message));
  res.writeHead(status, { 'content-type': JSON_CONTENT_TYPE, 'content-length': Buffer.byteLength(body) });
  res.end(body);
  // The pipeline may be waiting for the body. Node aborts a request whose body never came when its
  // connection closes, but not once its response is sent: this one's is, so it is aborted here.
  req.socket.once('close', () => req.destroy());
}

/** The response Node has attached to this connection: the request being served, if any. */
function inFlightResponse(socket: Duplex): ServerResponse | undefined {
  const res = (socket as { _httpMessage?: unknown })._httpMessage;
  return res instanceof ServerResponse ? res : undefined;
}

/**
 * Fails loudly at start-up if Node's HTTP server stops linking a socket to the response it
 * serves (`_httpMessage`, what `inFlightResponse` reads): a timed-out request would then get a
 * second, bare answer. (The e2e suite `early-answers.int.spec` proves the whole path on every run.)
 */
export function assertInFlightResponseVisible(): void {
  const socket = new Socket();
  const res = new ServerResponse(new IncomingMessage(socket));
  res.assignSocket(socket);
  const visible = inFlightResponse(socket) === res;
  res.detachSocket(socket);
  socket.destroy();
  if (!visible) throw new Error('node:http no longer links a socket to its response (_httpMessage): timed-out requests would be answered twice (see adapter-koa client-error.ts)');
}
