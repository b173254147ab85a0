// The low-noise companion of npm run bench: service, Koa reference and bare handler in ONE
// process, each driven through in-memory sockets (the real HTTP parser, no TCP, no load
// generator), alternating, so machine noise hits all three alike. It reports time per request
// without the socket syscalls, i.e. only the JavaScript each side runs: where our own cost
// shows most clearly. Not a budget check (the budgets are on real sockets, in bench.mjs).
//   taskset -c 0 node scripts/bench/inprocess-ab.mjs [--only <name part>] [--minimum]
// Sequences with captures (create + delete pairs) run as load-generator.mjs runs them: the id
// comes from the service's answer, the references get the fallback.
// AB_REPS (default 5) alternations of AB_REQUESTS (default 30000) requests per side; the
// "paired" column is the median of each alternation's own Koa ÷ service.
import 'reflect-metadata';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { Duplex } from 'node:stream';
import { join } from 'node:path';
import { loadConfig } from '../../packages/server/dist/config/service-config.js';
import { startService } from '../../packages/server/dist/service.js';
import { KoaAppToken } from '../../packages/server/dist/container/http.module.js';
import { apiKeysSetting, BENCH_JWT_SECRET, BenchClient, benchTenants } from './bench-client.mjs';
import { RESULTS_DIR, startFakeProvider } from './bench-environment.mjs';
import { median } from './interleaved-runs.mjs';
import { MINIMUM_OPERATIONS, minimumSeed, minimumSettings } from './minimum-seed.mjs';
import { missingRoutes, OPERATIONS, servedRoutes } from './operations.mjs';
import { bareHandler, referenceKoaApp } from './reference-apps.mjs';
import { fillTemplates } from './request-templates.mjs';

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
// --minimum: the rows the contract's least answers (reference-minimum.mjs, decision 0843) also
// on it, a fresh instance of it per row, in this process too (MINIMUM_SKIP leaves its parts out).
const withMinimum = process.argv.includes('--minimum');
const REQUESTS = Number(process.env.AB_REQUESTS ?? 30_000);
const REPS = Number(process.env.AB_REPS ?? 5);
// AB_CLOCK=cpu: time a side by the process's CPU time instead of the wall clock, for a machine
// that is not quiet (time spent waiting for the core does not count; cache sharing still does).
const CPU_CLOCK = process.env.AB_CLOCK === 'cpu';
let sequence = 0; // {{seq}} / {{round}} values of templated requests
/** The service's answers by status since the last check. */
const serviceStatuses = new Map();
const tenants = benchTenants(1);
// Translate calls the local provider in its own process (on the load core), as in bench.mjs.
const provider = await startFakeProvider();
// A run that fails must not leave the provider running (it is a process of its own).
process.once('exit', () => {
  try {
    process.kill(provider.pid, 'SIGTERM');
  } catch {
    // already stopped by the normal end of the run
  }
});
mkdirSync(RESULTS_DIR, { recursive: true }); // the request log goes there, as in bench.mjs
const service = await startService(
  loadConfig({
    PORT: '0',
    CMS_API_KEYS: apiKeysSetting(tenants),
    CMS_JWT_SECRET: BENCH_JWT_SECRET,
    CMS_LOG_FILE: join(RESULTS_DIR, 'inprocess-requests.log'),
    AI_BASE_URL: provider.baseUrl,
    AI_API_KEY: 'bench-provider-key',
    AI_MODEL: 'bench-model',
    AI_TOKEN_LIMIT_MONTHLY: '1000000000',
    CAPTCHA_PROVIDER_DEFAULT: 'none',
  }),
);
const api = new BenchClient({ origin: service.url, basePath: '/cms', tenant: tenants[0] });
const served = servedRoutes(await (await fetch(`${service.url}/cms/openapi.json`)).json());
const serviceServer = createServer(service.container.get(KoaAppToken).callback());

const minimumColumns = withMinimum ? [' minimum µs/req | minimum ÷ service |', '---:|---:|'] : ['', ''];
process.stdout.write(`| operation | service µs/req | Koa µs/req | bare µs/req | Koa ÷ service | paired |${minimumColumns[0]}\n|---|---:|---:|---:|---:|---:|${minimumColumns[1]}\n`);
let minimums = 0;
for (const operation of OPERATIONS) {
  if ((only && !operation.name.includes(only)) || missingRoutes(operation, served).length) continue;
  if (withMinimum && !MINIMUM_OPERATIONS.includes(operation.name)) continue;
  const requests = [await operation.seed(api, { user: 'ab-user', tag: 'ab' })].flat();
  const samples = await api.sendSequence(requests);
  const table = requests.map((request, i) => ({ method: request.method, path: request.path.split('?')[0], status: samples[i].status, bytes: samples[i].bytes }));
  const targets = { service: serviceServer, koa: createServer(referenceKoaApp(table).callback()), bare: createServer(bareHandler(table)) };
  if (withMinimum) targets.minimum = createServer((await minimumFor(operation.name, requests[0])).callback());
  const raw = requests.map(rawRequest);
  const times = Object.fromEntries(Object.keys(targets).map((label) => [label, []]));
  for (const server of Object.values(targets)) await drive(server, raw, REQUESTS / 3);
  for (let rep = 0; rep < REPS; rep++) for (const [label, server] of Object.entries(targets)) times[label].push(await drive(server, raw, REQUESTS));
  // A service answer the operation does not expect (a 500 under concurrency) means the row measured something else.
  const expected = new Set(requests.flatMap((request) => request.expect));
  const unexpected = [...serviceStatuses].filter(([status]) => !expected.has(status));
  serviceStatuses.clear();
  if (unexpected.length) process.stdout.write(`|  ↳ unexpected service answers: ${unexpected.map(([status, n]) => `${n} × ${status}`).join(', ')} | | | | | |\n`);
  const [s, k, b] = ['service', 'koa', 'bare'].map((label) => median(times[label]));
  // The ratio of each repetition's neighbouring runs, then their median: noise that lasts
  // seconds hits a pair alike, where it would move the two medians apart.
  const paired = median(times.service.map((micros, rep) => times.koa[rep] / micros));
  const minimum = withMinimum ? ` ${median(times.minimum).toFixed(1)} | ${median(times.service.map((micros, rep) => times.minimum[rep] / micros)).toFixed(2)} |` : '';
  process.stdout.write(`| ${operation.label ?? operation.name} | ${s.toFixed(1)} | ${k.toFixed(1)} | ${b.toFixed(1)} | ${(k / s).toFixed(2)} | ${paired.toFixed(2)} |${minimum}\n`);
}
await service.stop();
await provider.stop();
process.exit(0);

/** A fresh instance of the contract's least for one row (its module loaded anew), holding what the row's seed made. */
async function minimumFor(name, firstRequest) {
  const seed = await minimumSeed(name, api, firstRequest);
  Object.assign(process.env, minimumSettings({ tenants, providerUrl: provider.baseUrl, log: join(RESULTS_DIR, 'inprocess-minimum-requests.log'), seed }));
  const { minimumApp } = await import(`./reference-minimum.mjs?row=${++minimums}`);
  return minimumApp;
}

/**
 * The request's bytes, or for a templated one (`{{seq}}`: unique form slugs, `{{round}}`: one
 * user per PUT + DELETE pair, `{{name}}`: what an earlier request of the round captured, else
 * its `fallback`, as load-generator.mjs fills them) a maker of fresh bytes per send, given the
 * round's context. A capturing request carries `capture` for `drive` to read the answer.
 */
function rawRequest({ method, path, headers, body, capture, fallback, cycle }) {
  const made = madeRequest({ method, path, headers, body, fallback, cycle });
  return capture ? Object.assign(typeof made === 'function' ? made : () => made, { capture }) : made;
}

function madeRequest({ method, path, headers, body, fallback, cycle }) {
  const bytes = (fill) => {
    const lines = [`${method} ${fill(path)} HTTP/1.1`, 'host: bench', ...Object.entries(headers).map(([k, v]) => `${k}: ${fill(v)}`)];
    const text = body === undefined ? undefined : fill(body);
    if (text !== undefined) lines.push(`content-length: ${Buffer.byteLength(text)}`);
    return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${text ?? ''}`);
  };
  if (![path, body, ...Object.values(headers)].some((text) => text?.includes('{{'))) return bytes((text) => text);
  let sends = 0;
  return (context) => {
    const unique = `ab-${++sequence}`;
    const turn = cycle?.[sends++ % cycle.length]; // `{{x}}` from the request's `cycle`, as load-generator.mjs takes turns
    return bytes((text) => fillTemplates(text, { unique, context, turn, fallback }));
  };
}

/** µs per request over `count` requests on 10 in-memory keep-alive connections, each sending `raws` in turn. */
async function drive(server, raws, count) {
  const connections = Array.from({ length: 10 }, () => connection(server));
  const cpuStarted = process.cpuUsage();
  const started = performance.now();
  await Promise.all(connections.map(async (send) => {
    let context = {};
    for (let i = 0; i < count / 10; i++) {
      if (i % raws.length === 0) context = {};
      const raw = raws[i % raws.length];
      const answer = await send(typeof raw === 'function' ? raw(context) : raw);
      if (server === serviceServer) serviceStatuses.set(answer.status, (serviceStatuses.get(answer.status) ?? 0) + 1);
      if (raw.capture) captureInto(context, raw.capture, answer.body);
    }
  }));
  const cpu = process.cpuUsage(cpuStarted);
  const micros = (CPU_CLOCK ? cpu.user + cpu.system : (performance.now() - started) * 1000) / count;
  connections.forEach((send) => send.close());
  return micros;
}

/** A value the next requests of the round use; a reference's constant answer has none (its fallback is used). */
function captureInto(context, capture, answer) {
  try {
    const value = capture.path.reduce((at, key) => at?.[key], JSON.parse(answer.toString('utf8')));
    if (value !== undefined) context[capture.name] = value;
  } catch {
    // not JSON: the round goes on with the fallback
  }
}

/** An in-memory socket handed to the server; `send` resolves with the body when one full response is back. */
function connection(server) {
  let pending = Buffer.alloc(0);
  let done;
  const onData = (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    const head = pending.indexOf('\r\n\r\n');
    if (head < 0) return;
    const length = Number(/content-length: (\d+)/i.exec(pending.subarray(0, head).toString('latin1'))?.[1] ?? 0);
    if (pending.length < head + 4 + length) return;
    const status = Number(pending.subarray(9, 12).toString('latin1')); // "HTTP/1.1 200"
    const body = pending.subarray(head + 4, head + 4 + length);
    pending = pending.subarray(head + 4 + length);
    done?.({ status, body });
  };
  const socket = new Duplex({
    read() {},
    write(chunk, _encoding, callback) {
      onData(chunk);
      callback();
    },
    writev(chunks, callback) {
      onData(Buffer.concat(chunks.map(({ chunk }) => (typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk))));
      callback();
    },
  });
  Object.assign(socket, { remoteAddress: '127.0.0.1', setTimeout: () => socket, setNoDelay: () => {}, setKeepAlive: () => {} });
  server.emit('connection', socket);
  const send = (raw) => new Promise((resolve) => {
    done = resolve;
    socket.push(raw);
  });
  send.close = () => socket.destroy();
  return send;
}
