/**
 * Requests Node's HTTP server refuses before any middleware runs (a request head over 16 KiB,
 * a malformed request line, a client slower than the headers or request timeout) are answered
 * in the envelope too, instead of Node's bare answers with no body. Found by the fuzz suite: a
 * 16 KB path got a body-less 431. A socket whose request was already answered (its body was
 * being drained) gets nothing more: it is closed.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { isAnsweredEarly } from './early-answers.js';
import { errorEnvelope } from './envelope.js';

const CLIENT_ERRORS: Readonly<Record<string, readonly [number, string]>> = {
  HPE_HEADER_OVERFLOW: [431, 'Request header fields too large'],
  // Node's headersTimeout / requestTimeout (CONTRACT §8 slow clients).
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timeout'],
};

export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable || isAnsweredEarly(socket)) {
    socket.destroy();
    return;
  }
  const [status, message] = (error.code !== undefined && Object.hasOwn(CLIENT_ERRORS, error.code) && CLIENT_ERRORS[error.code]) || [400, 'Bad request'];
  const body = JSON.stringify(errorEnvelope(status, message));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'content-type: application/json; charset=utf-8\r\n' +
      `content-length: ${Buffer.byteLength(body)}\r\n` +
      `x-request-id: ${randomUUID()}\r\n` +
      'x-content-type-options: nosniff\r\n' +
      'cache-control: no-store\r\n' +
      'connection: close\r\n\r\n' +
      body,
  );
}
