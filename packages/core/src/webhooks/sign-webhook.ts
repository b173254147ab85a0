/**
 * Standard Webhooks signing: `webhook-signature: v1,<base64 HMAC-SHA256>` over
 * `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64-decoded secret after `whsec_`.
 */
import { createHmac } from 'node:crypto';
import { childSpanOf, traceparentOf, type TraceContext } from '../shared/trace-context.js';
import { WEBHOOK_SECRET_PREFIX } from './webhook.js';

export function signatureOf(secret: string, eventId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${eventId}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** The headers of one attempt; `webhook-timestamp` is the attempt's own time; `traceparent` a new span of the event's trace. */
export function webhookHeaders(secret: string, eventId: string, at: Date, body: string, trace?: TraceContext | null): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    traceparent: traceparentOf(childSpanOf(trace ?? undefined)),
    'content-type': 'application/json',
    'user-agent': 'cms-webhooks/1',
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureOf(secret, eventId, timestamp, body),
  };
}
