// The soak's webhook receiver: a plain node:http server on 127.0.0.1 in the harness process (the
// load side), one path per registered webhook. Every request is verified with the Standard
// Webhooks reference library (`standardwebhooks`, not the service's own signer) against that
// webhook's secret, and recorded by webhook-id (the event id). It answers 204 at once, except
// the first attempt of about one event in FAIL_ONE_IN, which gets a 500 so the service's
// retries run too (chosen from the event id, so a replay fails the same events).
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const FAIL_ONE_IN = 25;

export async function startWebhookReceiver() {
  /** path → { verifier, events: Map<eventId, { attempts, successes, types:Set }> } */
  const hooks = new Map();
  const tally = { requests: 0, badSignatures: 0, unexpected: 0, injected500: 0, samples: [] };
  const note = (kind, text) => {
    if (tally.samples.length < 5) tally.samples.push(`${kind}: ${text}`);
  };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      tally.requests += 1;
      const hook = hooks.get(req.url);
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(req.headers['webhook-id'] ?? '');
      if (req.method !== 'POST' || !hook || !id) {
        tally.unexpected += 1;
        note('unexpected', `${req.method} ${req.url} webhook-id ${id || '(none)'}`);
        return answer(res, 404);
      }
      let event;
      try {
        event = hook.verifier.verify(body, { 'webhook-id': id, 'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''), 'webhook-signature': String(req.headers['webhook-signature'] ?? '') });
      } catch (error) {
        tally.badSignatures += 1;
        note('bad signature', `${req.url} ${id}: ${error.message}`);
        return answer(res, 400);
      }
      const seen = hook.events.get(id) ?? { attempts: 0, successes: 0, type: event?.type };
      hook.events.set(id, seen);
      seen.attempts += 1;
      if (typeof event?.type !== 'string' || typeof event?.timestamp !== 'string' || event.data === undefined) {
        tally.unexpected += 1;
        note('unexpected body', `${req.url} ${id}: ${body.slice(0, 120)}`);
      }
      if (seen.attempts === 1 && failsFirstAttempt(id)) {
        tally.injected500 += 1;
        return answer(res, 500);
      }
      seen.successes += 1;
      answer(res, 204);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    /** Accepts deliveries on `path`, signed with `secret` (the webhook's, known once it is created). */
    add(path, secret) {
      hooks.set(path, { verifier: new Webhook(secret), events: new Map() });
    },
    /** What one path received: distinct events answered 2xx, those answered 2xx more than once, attempts, counts by type. */
    received(path) {
      const events = [...(hooks.get(path)?.events.values() ?? [])];
      const byType = {};
      for (const e of events.filter((e) => e.successes > 0)) byType[e.type] = (byType[e.type] ?? 0) + 1;
      return {
        delivered: events.filter((e) => e.successes > 0).length,
        duplicates: events.filter((e) => e.successes > 1).length,
        attempts: events.reduce((n, e) => n + e.attempts, 0),
        byType,
      };
    },
    tally,
    stop: () => {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      return closed;
    },
  };
}

function failsFirstAttempt(eventId) {
  return createHash('sha256').update(eventId).digest().readUInt32BE(0) % FAIL_ONE_IN === 0;
}

function answer(res, status) {
  res.writeHead(status);
  res.end();
}
