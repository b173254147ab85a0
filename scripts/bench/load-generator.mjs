// The load generator: runs autocannon in its own process (so the harness can pin it to the
// other core with taskset) and prints one JSON result on stdout. Its job file says what to send:
//   { url, connections, durationSeconds, requests: [{ method, path, headers, body, expect }],
//     verify }
// Latency is recorded here at sub-millisecond resolution: autocannon's own histogram counts
// whole milliseconds, and at ~0.5 ms per request p50 and p99 would both read 0 or 1.
// A body containing `{{seq}}` gets a number unique in this run (e.g. form slugs); `verify`
// checks each answer against its request's `expect` list (the soak needs that; the throughput
// runs only count statuses, which costs nothing per request).
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const job = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const SEQ = '{{seq}}';
let seq = 0;
let mismatches = 0;
const mismatchSamples = [];

const requests = job.requests.map((spec) => {
  const request = { method: spec.method, path: spec.path, headers: spec.headers ?? {} };
  if (spec.body !== undefined) request.body = spec.body;
  if (typeof spec.body === 'string' && spec.body.includes(SEQ)) {
    request.setupRequest = (req) => ({ ...req, body: spec.body.replaceAll(SEQ, `${process.pid}-${++seq}`) });
  }
  if (job.verify) {
    const expected = new Set(spec.expect ?? [200]);
    request.onResponse = (status) => {
      if (expected.has(status)) return;
      mismatches++;
      if (mismatchSamples.length < 20) mismatchSamples.push({ method: spec.method, path: spec.path, status, expected: [...expected] });
    };
  }
  return request;
});

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
    duration: job.durationSeconds,
    requests,
    timeout: job.timeoutSeconds ?? 10,
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
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  },
);
instance.on('response', (_client, _status, _bytes, responseTime) => record(responseTime));

const round = (ms) => Math.round(ms * 1000) / 1000;
