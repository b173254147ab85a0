/**
 * The CONTRACT §0 envelope, checked on any answer: no 5xx; a JSON object with exactly
 * success, statusCode, message and data (a 400 may add `errors`); statusCode equal to the HTTP
 * status; success true only below 400; a non-empty message; data null on errors; a request id.
 * Returns the problems found, so a fuzz failure says all that is wrong at once.
 */
import type { RawResponse } from './fuzz-requests.js';

/** A successful export (§6.6): the one answer under the base path that is not the envelope. */
export function isExportAnswer(response: RawResponse): boolean {
  const type = String(response.headers['content-type'] ?? '');
  return response.status === 200 && (type === 'text/csv; charset=utf-8' || type === 'application/x-ndjson');
}

export function envelopeProblems(response: RawResponse): string[] {
  if (isExportAnswer(response)) return response.headers['x-request-id'] ? [] : ['no x-request-id header'];
  if (response.status === 304) return notModifiedProblems(response);
  const problems: string[] = [];
  if (response.status >= 500) problems.push(`status ${response.status} is a server error`);
  if (!String(response.headers['content-type'] ?? '').includes('application/json')) {
    problems.push(`content-type is ${String(response.headers['content-type'])}`);
  }
  if (!response.headers['x-request-id']) problems.push('no x-request-id header');
  let body: unknown;
  try {
    body = JSON.parse(response.text);
  } catch {
    return [...problems, `body is not JSON: ${response.text.slice(0, 120)}`];
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [...problems, 'body is not an object'];
  const envelope = body as Record<string, unknown>;
  const keys = Object.keys(envelope).sort();
  const allowed = response.status === 400 ? ['data', 'errors', 'message', 'statusCode', 'success'] : ['data', 'message', 'statusCode', 'success'];
  const expected = ['data', 'message', 'statusCode', 'success'];
  if (!expected.every((key) => keys.includes(key)) || !keys.every((key) => allowed.includes(key))) problems.push(`keys are ${keys.join(', ')}`);
  if (envelope.statusCode !== response.status) problems.push(`statusCode ${String(envelope.statusCode)} differs from HTTP ${response.status}`);
  if (envelope.success !== response.status < 400) problems.push(`success is ${String(envelope.success)} for HTTP ${response.status}`);
  if (typeof envelope.message !== 'string' || envelope.message.trim() === '') problems.push('message is not a non-empty string');
  if (response.status >= 400 && envelope.data !== null) problems.push('data is not null on an error');
  if ('errors' in envelope) {
    const errors = envelope.errors;
    const wellFormed = Array.isArray(errors) && errors.every((e) => e && typeof e.path === 'string' && typeof e.message === 'string');
    if (!wellFormed) problems.push('errors is not a list of {path, message}');
  }
  return problems;
}

/** Every 24-hex id in a successful answer's data (so later requests can name real records). */
export function idsIn(value: unknown, into: Set<string>, depth = 0): void {
  if (depth > 8 || value === null || value === undefined) return;
  if (typeof value === 'string') {
    if (/^[a-f0-9]{24}$/i.test(value)) into.add(value.toLowerCase());
  } else if (Array.isArray(value)) {
    for (const item of value) idsIn(item, into, depth + 1);
  } else if (typeof value === 'object') {
    for (const item of Object.values(value)) idsIn(item, into, depth + 1);
  }
}

/** A GET whose `If-None-Match` matched: no body, the tag it matched, and the request id. */
function notModifiedProblems(response: RawResponse): string[] {
  const problems: string[] = [];
  if (response.text !== '') problems.push('a 304 with a body');
  if (!response.headers.etag) problems.push('a 304 without ETag');
  if (!response.headers['x-request-id']) problems.push('no x-request-id header');
  return problems;
}
