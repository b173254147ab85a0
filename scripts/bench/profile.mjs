// npm run bench -- style profiling of one operation: starts the service with --cpu-prof (same
// set-up as the harness), seeds and loads the operation, stops the service, and prints where
// the server's CPU went: top functions by self time and totals per package.
//   node scripts/bench/profile.mjs "PUT /reports/dashboardConfig" [seconds] [--koa | --floor | --minimum]
// --koa profiles the Koa reference instead, answering the same request with an envelope of the
// service's size, as in the bench; --floor (translate) the Koa reference plus the provider call,
// the floor translate is judged against; --minimum the contract's least (reference-minimum.mjs,
// for the rows it answers). Times are printed as µs a request, from the samples taken while the
// load ran, so that two profiles can be set side by side. The .cpuprofile stays in
// bench-results/profiles/ for Chrome DevTools and for flamegraph.mjs (--window <seconds> keeps
// the load, --requests the count printed).
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RESULTS_DIR, startBenchService, startFakeProvider } from './bench-environment.mjs';
import { referenceRoute } from './constant-envelope.mjs';
import { MINIMUM_OPERATIONS, minimumSeed, startMinimum } from './minimum-seed.mjs';
import { missingRoutes, OPERATIONS } from './operations.mjs';
import { runLoad, startKoaCallReference, startReference } from './processes.mjs';

const FLAGS = ['--koa', '--floor', '--minimum'];
const profileFloor = process.argv.includes('--floor');
const profileMinimum = process.argv.includes('--minimum');
const profileKoa = profileFloor || process.argv.includes('--koa');
const [name, seconds = '8'] = process.argv.slice(2).filter((arg) => !FLAGS.includes(arg));
const operation = OPERATIONS.find((op) => op.name === name);
if (!operation || (profileMinimum && !MINIMUM_OPERATIONS.includes(name))) {
  const names = profileMinimum ? MINIMUM_OPERATIONS : OPERATIONS.map((op) => op.name);
  process.stderr.write(`usage: profile.mjs "<operation>" [seconds] [${FLAGS.join(' | ')}]; operations:\n${names.map((n) => `  ${n}`).join('\n')}\n`);
  process.exit(1);
}
const dir = join(RESULTS_DIR, 'profiles');
mkdirSync(dir, { recursive: true });
const provider = await startFakeProvider();
const profiling = ['--cpu-prof', '--cpu-prof-dir', dir];
const service = await startBenchService({ providerUrl: provider.baseUrl, nodeArgs: profileKoa || profileMinimum ? [] : profiling });
let reference; // the Koa reference, the floor or the minimum, when one is profiled instead of the service
let load; // the monotonic clock (µs) when the load started and ended: the profile's timestamps are on it
try {
  const missing = missingRoutes(operation, service.served);
  if (missing.length) throw new Error(`not served yet: ${missing.join(', ')}`);
  const requests = [await operation.seed(service.clients[0], { user: 'bench-user', tag: 'p' })].flat();
  let origin = service.origin;
  if (profileKoa) {
    const samples = await service.clients[0].sendSequence(requests);
    const routeTable = requests.map((request, i) => referenceRoute(request, samples[i]));
    reference = profileFloor ? await startKoaCallReference(routeTable, provider.baseUrl, profiling) : await startReference('koa-reference', 'reference-koa.mjs', routeTable, profiling);
    origin = reference.origin;
  }
  if (profileMinimum) {
    const seed = await minimumSeed(name, service.clients[0], requests[0]);
    reference = await startMinimum({ nodeArgs: profiling, tenants: service.tenants, providerUrl: provider.baseUrl, log: join(RESULTS_DIR, 'minimum-requests.log'), seed });
    origin = reference.origin;
  }
  const started = microsNow();
  const result = await runLoad({ url: origin, connections: 10, durationSeconds: Number(seconds), requests });
  load = { started, ended: microsNow(), requests: result.requests };
  process.stdout.write(`${name}${profileFloor ? ' (translate floor)' : profileKoa ? ' (Koa reference)' : profileMinimum ? ' (the contract\'s least)' : ''}: ${result.rps} req/s, ${result.requests} requests, p99 ${result.latencyMs.p99} ms, statuses ${JSON.stringify(result.statuses)}\n`);
} finally {
  await reference?.stop();
  await service.stop();
  await provider.stop();
}
const newest = readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .map((f) => join(dir, f))
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
summarise(JSON.parse(readFileSync(newest, 'utf8')), load);
process.stdout.write(`profile: ${newest}\n`);

/** The monotonic clock in µs, as V8 stamps a profile's samples (both read CLOCK_MONOTONIC on Linux). */
function microsNow() {
  return Number(process.hrtime.bigint() / 1000n);
}

/**
 * Self time by function and by package, as µs a request over the samples taken while the load
 * ran (the start-up, the seeding and the stop left out), and as a share of that time.
 */
function summarise(profile, { started, ended, requests }) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  let at = profile.startTime;
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < started || at > ended) return;
    self.set(id, (self.get(id) ?? 0) + delta);
    total += delta;
  });
  const byFunction = new Map();
  const byPackage = new Map();
  for (const [id, time] of self) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const where = url.replace(/^file:\/\//, '').replace(/.*\/node_modules\//, '').replace(/.*\/packages\//, '@cms/');
    const fn = `${functionName || '(anonymous)'} ${where ? `${where}:${lineNumber + 1}` : ''}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + time);
    const pkg = !url ? functionName : url.startsWith('node:') ? 'node core' : (/node_modules\/((@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? /packages\/([^/]+)/.exec(url)?.[1] ?? url);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + time);
  }
  const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${(v / requests).toFixed(2).padStart(6)} µs ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`);
  process.stdout.write(`\nwhile loaded: ${(total / requests).toFixed(1)} µs a request (idle included)\n\nself time by package:\n${top(byPackage, 15).join('\n')}\n\ntop functions by self time:\n${top(byFunction, 30).join('\n')}\n\n`);
}
