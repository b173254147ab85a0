// Child processes of the harness: the service, the references, the fake AI provider and the
// load generator, each pinned to its core with taskset when the machine has it and two cores.
// The service side gets BENCH_SERVER_CPU (default 0), the load side BENCH_LOAD_CPU (default 1).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(here, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'cms-bench-'));
let scratchFiles = 0;
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
export const PINNING = {
  enabled: hasTaskset && availableParallelism() >= 2,
  serverCpu: process.env.BENCH_SERVER_CPU ?? '0',
  loadCpu: process.env.BENCH_LOAD_CPU ?? '1',
};

export function describePinning() {
  return PINNING.enabled
    ? `server side pinned to CPU ${PINNING.serverCpu}, load generator to CPU ${PINNING.loadCpu} (taskset)`
    : `NOT pinned (${hasTaskset ? 'fewer than 2 cores' : 'no taskset'}): ratios are noisier`;
}

function pinned(cpu, command, args) {
  return PINNING.enabled ? ['taskset', ['-c', String(cpu), command, ...args]] : [command, args];
}

/** Writes a JSON file the children read (route tables, load jobs). */
export function scratchFile(name, value) {
  const file = join(scratch, `${++scratchFiles}-${name}.json`);
  writeFileSync(file, JSON.stringify(value));
  return file;
}

/**
 * Starts a long-running child on `cpu` and resolves once a line of its output matches `ready`
 * (with the match), or rejects when it exits first or stays silent for 30 s. With `ipc` the
 * child gets an IPC channel (taskset execs node, which inherits it) and the result a `call`.
 */
export function startPinned({ name, cpu, script, args = [], env = {}, ready, nodeArgs = [], ipc = false }) {
  const [command, argv] = pinned(cpu, process.execPath, [...nodeArgs, script, ...args]);
  const stdio = ['ignore', 'pipe', 'pipe', ...(ipc ? ['ipc'] : [])];
  const child = spawn(command, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${name} did not start within 30 s:\n${output}`)), 30_000);
    const fail = (error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const onData = (chunk) => {
      output += chunk;
      const match = ready.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.removeAllListeners('data');
      child.stderr.removeAllListeners('data');
      child.stdout.resume();
      // Keep the last few KB of stderr, so a child that dies mid-run can say why.
      let tail = '';
      child.stderr.on('data', (more) => {
        tail = (tail + more).slice(-4096);
        if (process.env.BENCH_VERBOSE) process.stderr.write(`[${name}] ${more}`);
      });
      child.removeAllListeners('exit');
      let exited;
      child.once('exit', (code, signal) => (exited = `${name} exited (${code ?? signal})${tail ? `; last stderr:\n${tail}` : ''}`));
      resolve({ name, pid: child.pid, match, output, stop: () => stop(child), exited: () => exited, ...(ipc ? { call: caller(child, name) } : {}) });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code, signal) => fail(new Error(`${name} exited (${code ?? signal}) before it was ready:\n${output}`)));
  });
}

/** `call(message, timeoutMs)`: sends an IPC message with a fresh id and resolves with the answer of that id. */
function caller(child, name) {
  let next = 0;
  const waiting = new Map();
  child.on('message', (answer) => {
    const pending = waiting.get(answer?.id);
    if (!pending) return;
    waiting.delete(answer.id);
    clearTimeout(pending.timer);
    if (answer.error) pending.reject(new Error(`${name}: ${answer.error}`));
    else pending.resolve(answer);
  });
  return (message, timeoutMs = 600_000) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`${name} did not answer ${message.type} within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      waiting.set(id, { resolve, reject, timer });
      child.send({ ...message, id });
    });
}

function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const hard = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(hard);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts the real service (packages/server/dist/main.js) in production mode on a free port.
 * `pid` is the node process itself (taskset execs it), so /proc/<pid> is the server's. With
 * `maintenance` it is started through service-with-maintenance.mjs instead (same service, plus
 * an IPC channel for the recount: the soak), and the result has `call`.
 */
export async function startService({ env, name = 'service', nodeArgs = [], maintenance = false }) {
  const started = await startPinned({
    name,
    nodeArgs,
    ipc: maintenance,
    cpu: PINNING.serverCpu,
    script: maintenance ? join(here, 'service-with-maintenance.mjs') : join(ROOT, 'packages/server/dist/main.js'),
    env: { NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '0', ...env },
    ready: /listening on (http:\/\/[^/\s]+)(\/\S*)/,
  });
  return { ...started, origin: started.match[1], basePath: started.match[2] };
}

/** Starts one of the reference servers over a route table (`nodeArgs`: e.g. --cpu-prof, for profile.mjs). */
export async function startReference(name, script, routeTable, nodeArgs = []) {
  const started = await startPinned({
    name,
    cpu: PINNING.serverCpu,
    script: join(here, script),
    args: [scratchFile(`${name}-routes`, routeTable)],
    env: { NODE_ENV: 'production' },
    ready: /listening (\d+)/,
    nodeArgs,
  });
  return { ...started, origin: `http://127.0.0.1:${started.match[1]}` };
}

/**
 * The translate floor: the Koa reference plus one call per request to the AI provider through the
 * service's own provider adapter (reference-koa-call.mjs), the best a translate could do.
 */
export async function startKoaCallReference(routeTable, providerUrl, nodeArgs = []) {
  const started = await startPinned({
    name: 'koa-call',
    nodeArgs,
    cpu: PINNING.serverCpu,
    script: join(here, 'reference-koa-call.mjs'),
    args: [scratchFile('koa-call-routes', routeTable)],
    env: { NODE_ENV: 'production', AI_BASE_URL: providerUrl },
    ready: /listening (\d+)/,
  });
  return { ...started, origin: `http://127.0.0.1:${started.match[1]}` };
}

/** Runs the load generator on the load core; resolves with its JSON result. */
export function runLoad(job) {
  const [command, argv] = pinned(PINNING.loadCpu, process.execPath, [join(here, 'load-generator.mjs'), scratchFile('load', job)]);
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator failed (${code}): ${err}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()));
      } catch (error) {
        reject(new Error(`load generator printed no result: ${out}${err}`));
      }
    });
  });
}

export const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;

/**
 * What a process has used so far, from /proc/<pid>/stat (Linux; undefined elsewhere): CPU
 * seconds in user and system mode (all threads) and minor page faults. Over a run, divided by
 * its requests: the server's CPU cost per request, which, unlike req/s, does not depend on how
 * fast the load generator could send, and how often it made the kernel hand it a page.
 * `mainThread`: the CPU seconds of the thread that runs JavaScript (its tid is the pid); the
 * rest is V8's and libuv's helper threads (compiling, collecting, file writes).
 */
export async function processUsage(pid) {
  try {
    const { readFile } = await import('node:fs/promises');
    const [whole, main] = await Promise.all([readFile(`/proc/${pid}/stat`, 'utf8'), readFile(`/proc/${pid}/task/${pid}/stat`, 'utf8')]);
    const fields = statFields(whole);
    const mainFields = statFields(main);
    return {
      user: Number(fields[11]) / CLOCK_TICKS,
      system: Number(fields[12]) / CLOCK_TICKS,
      minorFaults: Number(fields[7]),
      mainThread: (Number(mainFields[11]) + Number(mainFields[12])) / CLOCK_TICKS,
    };
  } catch {
    return undefined;
  }
}

/** The fields of a /proc stat line after the command name (which may hold spaces and parentheses). */
const statFields = (stat) => stat.slice(stat.lastIndexOf(')') + 2).split(' ');

/** The resident set size of a process, in MiB, from /proc (Linux); undefined elsewhere. */
export async function residentMiB(pid) {
  try {
    const { readFile } = await import('node:fs/promises');
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : undefined;
  } catch {
    return undefined;
  }
}
