// Where a request leaves V8's compiled code for its runtime (decision 0790): loads one operation
// on the service (or, with --koa, on the Koa reference) under Linux `perf`, with the same
// set-up as the bench, and prints the time per request under each V8 runtime function, inline
// cache miss or megamorphic lookup, grouped by the JavaScript function that called it. The V8
// profiler cannot show these: it charges them to the calling function's own time.
//   node scripts/bench/runtime-calls.mjs "GET /forms/{id}/submissions" [seconds] [--koa]
// Needs `perf` (Debian: linux-perf) and a kernel that lets this user record a process
// (perf_event_paranoid ≤ 2 records its own processes). Says so and exits 1 when it cannot.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { RESULTS_DIR, startBenchService, startFakeProvider } from './bench-environment.mjs';
import { referenceRoute } from './constant-envelope.mjs';
import { missingRoutes, OPERATIONS } from './operations.mjs';
import { runLoad, startReference } from './processes.mjs';

const onKoa = process.argv.includes('--koa');
const [name, seconds = '4'] = process.argv.slice(2).filter((arg) => arg !== '--koa');
const operation = OPERATIONS.find((op) => op.name === name);
if (!operation) {
  process.stderr.write(`usage: runtime-calls.mjs "<operation>" [seconds] [--koa]; operations:\n${OPERATIONS.map((op) => `  ${op.name}`).join('\n')}\n`);
  process.exit(1);
}
if (spawnSync('perf', ['--version']).status !== 0) {
  process.stderr.write('runtime-calls: `perf` is not installed (Debian: apt-get install linux-perf)\n');
  process.exit(1);
}

const dir = join(RESULTS_DIR, 'perf');
mkdirSync(dir, { recursive: true });
const data = join(dir, `${onKoa ? 'koa' : 'service'}.perf.data`);
rmSync(data, { force: true });
// --perf-basic-prof: V8 writes /tmp/perf-<pid>.map, which names compiled JavaScript for perf.
const symbols = ['--perf-basic-prof'];
const provider = await startFakeProvider();
const service = await startBenchService({ providerUrl: provider.baseUrl, nodeArgs: onKoa ? [] : symbols });
let koa;
let requests;
let recordedPid;
try {
  const missing = missingRoutes(operation, service.served);
  if (missing.length) throw new Error(`not served yet: ${missing.join(', ')}`);
  const sequence = [await operation.seed(service.clients[0], { user: 'bench-user', tag: `rt${Date.now().toString(36)}` })].flat();
  let target = service;
  if (onKoa) {
    const samples = await service.clients[0].sendSequence(sequence);
    koa = await startReference('koa-reference', 'reference-koa.mjs', sequence.map((request, i) => referenceRoute(request, samples[i])), symbols);
    target = koa;
  }
  recordedPid = target.pid;
  await runLoad({ url: target.origin, connections: 10, durationSeconds: 2, requests: sequence }); // warm-up
  const perf = spawn('perf', ['record', '-e', 'cpu-clock', '-F', '4999', '-g', '-o', data, '-p', String(target.pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let perfErrors = '';
  perf.stderr.on('data', (chunk) => (perfErrors += chunk));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const result = await runLoad({ url: target.origin, connections: 10, durationSeconds: Number(seconds), requests: sequence });
  perf.kill('SIGINT');
  const [code, signal] = await new Promise((resolve) => perf.on('exit', (...end) => resolve(end)));
  // perf stops on SIGINT, writing what it recorded; it may exit 0 or by that signal.
  if (!(code === 0 || signal === 'SIGINT') || !existsSync(data)) throw new Error(`perf record failed (${code ?? signal}): ${perfErrors.trim()}`);
  requests = result.requests;
  process.stdout.write(`${name}${onKoa ? ' (Koa reference)' : ''}: ${result.rps} req/s, ${requests} requests\n`);
} finally {
  await koa?.stop();
  await service.stop();
  await provider.stop();
}

const script = spawnSync('perf', ['script', '-i', data, '-F', 'ip,sym'], { maxBuffer: 1 << 30, encoding: 'utf8' });
rmSync(`/tmp/perf-${recordedPid}.map`, { force: true }); // V8's symbol map, needed only by perf script
if (script.status !== 0) {
  process.stderr.write(`perf script failed: ${script.stderr}\n`);
  process.exit(1);
}
summarise(script.stdout, requests);

/** Each sample's stack is a block of `ip symbol` lines, innermost first; blocks are separated by a blank line. */
function summarise(text, requestCount) {
  const stacks = text.split('\n\n').map((block) => block.split('\n').map((line) => line.trim().replace(/^[0-9a-f]+ /, '')).filter(Boolean)).filter((stack) => stack.length);
  const byCall = new Map();
  let cpuSamples = 0;
  for (const stack of stacks) {
    cpuSamples += 1;
    const at = stack.findIndex(isSlowPath);
    if (at === -1) continue;
    const caller = stack.slice(at + 1).find((frame) => frame.startsWith('JS:')) ?? '(no JavaScript caller)';
    const key = `${shortName(stack[at])}\t${caller.replace(/file:\/\/\/?[^ ]*?\/(packages|node_modules|scripts)\//, '$1/')}`;
    byCall.set(key, (byCall.get(key) ?? 0) + 1);
  }
  // cpu-clock at 4999 Hz: each sample stands for 1/4999 s of the process's CPU.
  const microsPerSample = 1e6 / 4999 / requestCount;
  const rows = [...byCall].sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, n]) => sum + n, 0);
  process.stdout.write(`\nCPU per request ${(cpuSamples * microsPerSample).toFixed(1)} µs, of which in V8's slow paths ${(total * microsPerSample).toFixed(1)} µs:\n`);
  for (const [key, n] of rows.slice(0, 25)) {
    const [call, caller] = key.split('\t');
    process.stdout.write(`${(n * microsPerSample).toFixed(2).padStart(7)} µs  ${call.padEnd(38)} ${caller}\n`);
  }
}

/** A V8 runtime function, an inline-cache miss, or a megamorphic lookup builtin. */
function isSlowPath(frame) {
  return /v8::internal::Runtime_\w+|IC_Miss|Builtins_\w*IC_Megamorphic/.test(frame);
}

function shortName(frame) {
  return (/(Runtime_\w+|Builtins_\w+|\w*IC_Miss)/.exec(frame)?.[1] ?? frame).slice(0, 38);
}
