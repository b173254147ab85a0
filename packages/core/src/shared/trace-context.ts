/**
 * W3C trace context (https://www.w3.org/TR/trace-context/) of the request being served, passed
 * explicitly on the caller rather than through AsyncLocalStorage (decision 0730: on Node 20 an
 * active AsyncLocalStorage costs every promise of every request). An outbound port receives the
 * context of its call and its adapter sends `traceparentOf(trace)`, so the provider's side joins
 * the caller's trace: as a child of the request's span, or of the call's own client span when an
 * OpenTelemetry SDK is registered (the server then hands each outbound call its span's context).
 */
import { randomFillSync } from 'node:crypto';

export interface TraceContext {
  /** 32 lowercase hex digits, not all zero. */
  readonly traceId: string;
  /** This hop's span id: 16 lowercase hex digits, not all zero. */
  readonly spanId: string;
  /** Trace flags, 2 hex digits (`01`: sampled). */
  readonly flags: string;
  /** The id of the request being served, which every log line written for it carries. */
  readonly requestId?: string;
}

// Version 00's layout, then the end of the value or the `-` a later version continues with.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:$|-)/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/**
 * The sender's context from a `traceparent` header, or undefined when absent or invalid. Version
 * 00 is exactly 55 characters. A later version is read as the W3C recommendation's "Versioning of
 * traceparent" says (decision 0778): its first 55 characters as version 00's, followed by the end
 * of the value or a `-` and fields this version does not know, which are ignored. `ff` is never
 * a version.
 */
export function parseTraceparent(header: string | undefined): TraceContext | undefined {
  if (header === undefined || header.length < 55) return undefined;
  const match = TRACEPARENT.exec(header);
  if (!match || match[2] === ZERO_TRACE || match[3] === ZERO_SPAN) return undefined;
  const version = match[1];
  if (version === 'ff' || (version === '00' && header.length !== 55)) return undefined;
  return { traceId: match[2]!, spanId: match[3]!, flags: match[4]! };
}

/** A new span in the parent's trace, or the root span of a new (sampled) trace; `requestId` names the request it serves. */
export function childSpanOf(parent: TraceContext | undefined, requestId?: string): TraceContext {
  let traceId: string;
  let spanId: string;
  if (parent) {
    traceId = parent.traceId;
    spanId = randomHex16();
  } else {
    // A new trace: its id and the span's from one draw (one hex conversion per request, not two).
    const ids = randomHex(24);
    traceId = ids.slice(0, 32);
    spanId = ids.slice(32);
  }
  const flags = parent?.flags ?? '01';
  return requestId === undefined ? { traceId, spanId, flags } : { traceId, spanId, flags, requestId };
}

/** The fields a log line written while serving a request carries: its request id and trace id. */
export function logFieldsOf(trace: TraceContext | undefined): { requestId?: string; traceId?: string } {
  if (!trace) return {};
  return trace.requestId === undefined ? { traceId: trace.traceId } : { requestId: trace.requestId, traceId: trace.traceId };
}

export function traceparentOf(trace: TraceContext): string {
  return `00-${trace.traceId}-${trace.spanId}-${trace.flags}`;
}

// Ids come from a pool of random bytes filled 4 KiB at a time: one fill serves ~170 requests,
// where two crypto calls per request showed in the benchmark (decision 0730).
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

function randomHex(bytes: number): string {
  if (offset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return hex;
}

function randomHex16(): string {
  return randomHex(8);
}
