// The load generator: runs autocannon in its own process (so the harness can pin it to the
// other core with taskset) and prints one JSON result on stdout. Its job file says what to send:
//   { url, connections, durationSeconds | amount, requests: [{ method, path, headers, body,
//     expect, capture, fallback }], verify }
// Each connection sends `requests` in turn, again and again. Latency is recorded here at
// sub-millisecond resolution: autocannon's own histogram counts whole milliseconds, and at
// ~0.5 ms per request p50 and p99 would both read 0 or 1.
// Templates in a request's path, header values and body:
//   {{seq}}   a value unique in this run, the same within one request (form slugs, user ids);
//   {{round}} a value unique to one round of the list on one connection, the same for every
//             request of that round (a PUT and the DELETE that removes it, by one user);
//   {{name}}  a value an earlier request of the same round captured from its answer
//             (`capture: { name, path: ['data', 'author', 'id'] }`), else `fallback[name]`: a
//             create-then-delete pair deletes what it created. A reference server answers a
//             constant body with nothing to capture, so it gets the fallback (a fixed path).
//   {{x}}     with `cycle: [{x, …}, …]` on the request: entry n of the list for the n-th send of
//             that request in this process, so requests take turns over records (a connect
//             that replaces a relation each time, never the id it holds: see operations.mjs).
// `group` (with `verify`) tallies the answers of such requests apart in `groups`.
// `amount` sends exactly that many requests and ignores the duration (bulk seeding). `verify`
// checks each answer against its request's `expect` list (the soak and seeding need that; the
// throughput runs only count statuses, which costs nothing per request).
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { fillTemplates } from './request-templates.mjs';

const job = JSON.parse(readFileSync(process.argv[2], 'utf8'));
let seq = 0;
let mismatches = 0;
const mismatchSamples = [];
/** The requests a connection was waiting on when it timed out (the first 20), so a report can name them. */
const timeoutSamples = [];
/** With `verify`: statuses per request `group` (the soak tells guests' answers apart). */
const groups = {};

const hasTemplate = (text) => typeof text === 'string' && text.includes('{{');

const requests = job.requests.map((spec) => {
  const request = { method: spec.method, path: spec.path, headers: spec.headers ?? {} };
  if (spec.body !== undefined) request.body = spec.body;
  const dynamic = hasTemplate(spec.path) || hasTemplate(spec.body) || Object.values(request.headers).some(hasTemplate);
  let sends = 0;
  if (dynamic) {
    request.setupRequest = (req, context) => {
      const unique = `${process.pid}-${++seq}`;
      const turn = spec.cycle?.[sends++ % spec.cycle.length];
      // autocannon gives each round of the list on a connection a fresh context.
      const fill = (text) => (hasTemplate(text) ? fillTemplates(text, { unique, context, turn, fallback: spec.fallback }) : text);
      const headers = {};
      for (const [name, value] of Object.entries(spec.headers ?? {})) headers[name] = fill(value);
      return { ...req, path: fill(spec.path), headers, ...(spec.body !== undefined ? { body: fill(spec.body) } : {}) };
    };
  }
  const expected = new Set(spec.expect ?? [200]);
  const capture = spec.capture;
  if (job.verify || capture) {
    request.onResponse = (status, body, context) => {
      if (capture && status < 300) {
        try {
          const value = capture.path.reduce((at, key) => at?.[key], JSON.parse(body));
          if (value !== undefined) context[capture.name] = value;
        } catch {
          // a reference's constant answer, or not JSON: the fallback applies
        }
      }
      if (!job.verify) return;
      if (spec.group) {
        const tally = (groups[spec.group] ??= {});
        tally[status] = (tally[status] ?? 0) + 1;
      }
      if (expected.has(status)) return;
      mismatches++;
      if (mismatchSamples.length < 20) mismatchSamples.push({ method: spec.method, path: spec.path, status, expected: [...expected] });
    };
  }
  return request;
});

// autocannon builds every request that has no `setupRequest` once per connection, all before the
// first is sent, and each connection's timeout clock starts when the connection is made: the
// soak's mix of 8,800 requests at 100 connections took 13 s to build, so the connections made
// first "timed out" on their first request before any was sent. A long list is built request by
// request as it is sent instead (a few µs each, in this process); the bench's short lists stay
// built ahead.
const BUILT_AHEAD_MAX = 20_000;
if (requests.length * job.connections > BUILT_AHEAD_MAX) for (const request of requests) request.setupRequest ??= (req) => req;

let latencies = new Float64Array(1 << 16);
let count = 0;
const record = (ms) => {
  if (count === latencies.length) {
    const grown = new Float64Array(latencies.length * 2);
    grown.set(latencies);
    latencies = grown;
  }
  latencies[count++] = ms;
};

const instance = autocannon(
  {
    url: job.url,
    connections: job.connections,
    ...(job.amount ? { amount: job.amount } : { duration: job.durationSeconds }),
    requests,
    timeout: job.timeoutSeconds ?? 10,
    // With `verify` only (the throughput runs keep autocannon's own path): autocannon reconnects
    // and sends the next request before it reports a timeout, so the request that timed out is
    // the one sent before the latest.
    setupClient: (client) => {
      if (!job.verify) return;
      const sent = [];
      const buffer = client.getRequestBuffer.bind(client);
      client.getRequestBuffer = () => {
        sent.push(client.requestIterator.currentRequest);
        if (sent.length > 2) sent.shift();
        return buffer();
      };
      client.on('timeout', () => {
        const { method, path } = sent.length === 2 ? sent[0] : {};
        if (timeoutSamples.length < 20) timeoutSamples.push({ method, path });
      });
    },
  },
  (error, result) => {
    if (error) {
      process.stderr.write(`load-generator: ${error.stack ?? error}\n`);
      process.exit(1);
    }
    const sorted = latencies.subarray(0, count).sort();
    const at = (q) => (count === 0 ? null : round(sorted[Math.min(count - 1, Math.floor(q * count))]));
    const statuses = Object.fromEntries(Object.entries(result.statusCodeStats).map(([status, { count: n }]) => [status, n]));
    const out = {
      requests: result.requests.total,
      durationSeconds: result.duration,
      rps: Math.round(result.requests.total / result.duration),
      latencyMs: { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) },
      statuses,
      errors: result.errors,
      timeouts: result.timeouts,
      resets: result.resets,
      mismatches,
      mismatchSamples,
      timeoutSamples,
      groups,
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  },
);
instance.on('response', (_client, _status, _bytes, responseTime) => record(responseTime));

const round = (ms) => Math.round(ms * 1000) / 1000;
