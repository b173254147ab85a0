/**
 * Requests Node's HTTP parser refuses before any middleware runs (a request head over 16 KiB,
 * a malformed request line) are answered in the envelope too, instead of Node's bare
 * `400 Bad Request` with no body. Found by the fuzz suite: a 16 KB path got a body-less 431.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorEnvelope } from './envelope.js';

export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const message = status === 431 ? 'Request header fields too large' : 'Bad request';
  const body = JSON.stringify(errorEnvelope(status, message));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'content-type: application/json; charset=utf-8\r\n' +
      `content-length: ${Buffer.byteLength(body)}\r\n` +
      `x-request-id: ${randomUUID()}\r\n` +
      'connection: close\r\n\r\n' +
      body,
  );
}
