// Interleaved measurement: every target is warmed up until V8 has stopped compiling what the
// request runs (below), then `reps` repetitions in rotating order (A B C, B C A, C A B), so a slow
// drift of the machine hits each target alike. Ratios are taken per repetition between runs that
// were seconds apart, then the median.
import { watchRun } from './bench-guard.mjs';
import { processUsage, runLoad } from './processes.mjs';

export const DEFAULTS = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  durationSeconds: Number(process.env.BENCH_DURATION ?? 4),
  warmupSeconds: Number(process.env.BENCH_WARMUP ?? 2),
  reps: Number(process.env.BENCH_REPS ?? 3),
  /** Most seconds of load added to the warm-up while a process is still compiling. */
  settleMaxSeconds: Number(process.env.BENCH_SETTLE_MAX ?? 8),
};

/**
 * A second of load in which a process's helper threads took more than this share of its CPU:
 * V8 is still compiling the request's code off the main thread (30-50 % while it does, 0-4 % once
 * it is done, GC helpers and the log's file writes included: docs/performance-log.md, 2026-12-03).
 */
export const SETTLED_HELPER_SHARE = Number(process.env.BENCH_SETTLED_HELPERS ?? 0.1);

/**
 * @param targets [{ label, origin, pid, exited }] (pid: to read the server's CPU time per request;
 *   exited(): why the server process is gone, if it is)
 * @param request the request to send (same path, headers and body for every target), or a list
 *   that each connection sends in turn (a scale scenario's put-then-delete)
 * @returns { [label]: { runs: result[], problems: string[], disturbed: string[] } }
 *   problems: the run measured something else (unexpected answers); disturbed: the machine did
 *   (another process on the server core, a saturated load generator; bench-guard.mjs)
 */
export async function interleavedRuns(targets, request, options = DEFAULTS) {
  const requests = Array.isArray(request) ? request : [request];
  const expect = [...new Set(requests.flatMap((r) => r.expect ?? [200]))];
  const job = (origin, durationSeconds) => ({ url: origin, connections: options.connections, durationSeconds, requests });
  const results = Object.fromEntries(targets.map(({ label }) => [label, { runs: [], problems: [], disturbed: [] }]));
  for (const target of targets) {
    results[target.label].warmup = await warmUp(target, (seconds) => job(target.origin, seconds), options);
  }
  for (let rep = 0; rep < options.reps; rep++) {
    const order = targets.map((_, i) => targets[(i + rep) % targets.length]);
    for (const target of order) {
      if (target.exited?.()) throw new Error(target.exited());
      const result = await measuredRun(target, job(target.origin, options.durationSeconds));
      if (result.disturbance) results[target.label].disturbed.push(`run ${rep + 1}: ${result.disturbance}`);
      results[target.label].runs[rep] = result;
      const problem = problemOf(result, expect);
      if (problem) results[target.label].problems.push(`run ${rep + 1}: ${problem}`);
    }
  }
  return results;
}

/**
 * Loads `target` ({ pid }) for `warmupSeconds` in runs of a second, then a second at a time while
 * its helper threads still took more than SETTLED_HELPER_SHARE of its CPU (at most
 * `settleMaxSeconds` more). A route's first seconds are V8 compiling it: the service has far
 * more code on a request's path than a reference, and measured before it is done, a repetition
 * reads the compiler rather than the code. Returns { seconds, helperShare } (of the last second).
 */
export async function warmUp(target, jobOf, options = DEFAULTS) {
  if (!(options.warmupSeconds > 0)) return { seconds: 0 };
  let seconds = 0;
  let helperShare;
  const limit = options.warmupSeconds + (options.settleMaxSeconds ?? DEFAULTS.settleMaxSeconds);
  while (seconds < limit) {
    const step = Math.min(1, limit - seconds);
    ({ helperShare } = await measuredRun(target, jobOf(step)));
    seconds += step;
    // Without /proc there is nothing to settle on: the fixed warm-up only.
    if (seconds >= options.warmupSeconds && (helperShare === undefined || helperShare <= SETTLED_HELPER_SHARE)) break;
  }
  return { seconds, helperShare };
}

/**
 * The share of a process's CPU between two `processUsage` readings not spent on its main thread
 * (at least 0: the two figures are read a moment apart, in clock ticks).
 */
function helperShareOf(before, after) {
  const cpu = after.user + after.system - before.user - before.system;
  return cpu > 0 ? Math.max(0, 1 - (after.mainThread - before.mainThread) / cpu) : undefined;
}

/**
 * One run of the load generator against `target` ({ pid }), with the server's CPU per request,
 * the kernel's share of it and its page faults per request (when /proc can be read), and
 * `disturbance` when the machine disturbed the run (bench-guard.mjs).
 */
export async function measuredRun(target, job) {
  const before = await processUsage(target.pid);
  const watch = watchRun();
  const result = await runLoad(job);
  const after = await processUsage(target.pid);
  const serverCpu = before && after ? after.user + after.system - before.user - before.system : undefined;
  if (serverCpu !== undefined && result.requests > 0) {
    result.cpuMicrosPerRequest = (serverCpu * 1e6) / result.requests;
    // Where that CPU went: the kernel's share, and how many fresh pages it handed out per request.
    result.systemShare = serverCpu > 0 ? (after.system - before.system) / serverCpu : undefined;
    result.faultsPerRequest = (after.minorFaults - before.minorFaults) / result.requests;
    // What the helper threads took: V8 compiling and collecting off the main thread, libuv's pool.
    result.helperShare = helperShareOf(before, after);
  }
  const disturbance = watch.end(serverCpu);
  if (disturbance) result.disturbance = disturbance;
  return result;
}

/** A run whose answers were not all the expected status measured something else. */
export function problemOf(result, expect) {
  const unexpected = Object.entries(result.statuses).filter(([status]) => !expect.includes(Number(status)));
  if (unexpected.length) return `unexpected statuses ${unexpected.map(([s, n]) => `${s}×${n}`).join(', ')}`;
  if (result.errors || result.timeouts) return `${result.errors} errors, ${result.timeouts} timeouts`;
  if (result.requests === 0) return 'no request completed';
  return undefined;
}

export const median = (values) => {
  const sorted = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Median req/s, p50, p99 of a target's runs. */
export function summarise(runs) {
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.latencyMs.p50)),
    p99: median(runs.map((r) => r.latencyMs.p99)),
    cpuPerRequest: median(runs.map((r) => r.cpuMicrosPerRequest)),
    systemShare: median(runs.map((r) => r.systemShare)),
    faultsPerRequest: median(runs.map((r) => r.faultsPerRequest)),
    helperShare: median(runs.map((r) => r.helperShare)),
    runsRps: runs.map((r) => r.rps),
  };
}

/** Median over repetitions of a/b, each from the same repetition. */
export function pairedRatio(runsA, runsB, pick = (r) => r.rps) {
  return median(runsA.map((run, i) => pick(run) / pick(runsB[i])));
}
