// Whether a measurement of this machine can mean anything (issue 18 item 6). Ratios compare the
// service with references loaded seconds apart on the same pinned core: they hold when that core
// runs nothing else, the load generator keeps up, and the clock speed stays put. The bench asks
// before it starts (refuses to run) and after each run (the run is "disturbed": its row is not
// reported as a result), and says why instead of printing a FAIL.
//   BENCH_MAX_FOREIGN (0.15)   share of a run the server core may spend on other processes or steal
//   BENCH_ALLOW_FREQUENCY_SCALING=1   measure although a scaling governor is active
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLOCK_TICKS, PINNING } from './processes.mjs';

const MAX_FOREIGN = Number(process.env.BENCH_MAX_FOREIGN ?? 0.15);
/** Busier than this before anything of ours runs, a core is in use by something else. */
const MAX_BUSY_BEFORE = 0.2;
/** The load core this busy while the server core idles: the generator, not the server, set the pace. */
const LOAD_SATURATED = 0.97;
const SERVER_IDLE_WHEN_SATURATED = 0.85;

/** Seconds of busy, idle and steal time per CPU (`'0'`, `'1'`, …) from /proc/stat; undefined off Linux. */
export function cpuTimes() {
  let text;
  try {
    text = readFileSync('/proc/stat', 'utf8');
  } catch {
    return undefined;
  }
  const times = {};
  for (const line of text.split('\n')) {
    const match = /^cpu(\d+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const [user, nice, system, idle, iowait, irq, softirq, steal = 0] = match[2].split(/\s+/).map(Number);
    times[match[1]] = { busy: (user + nice + system + irq + softirq) / CLOCK_TICKS, idle: (idle + iowait) / CLOCK_TICKS, steal: steal / CLOCK_TICKS };
  }
  return times;
}

const delta = (before, after, cpu) => {
  const a = after?.[cpu];
  const b = before?.[cpu];
  if (!a || !b) return undefined;
  return { busy: a.busy - b.busy, idle: a.idle - b.idle, steal: a.steal - b.steal };
};

/** Why this machine cannot give meaningful ratios now, or undefined when it can. */
export async function environmentRefusal() {
  if (availableParallelism() < 2) return `only ${availableParallelism()} core available: the service and the load generator need one each`;
  if (!PINNING.enabled) return 'cannot pin the service and the load generator to their cores (taskset missing): install util-linux';
  for (const cpu of [PINNING.serverCpu, PINNING.loadCpu]) {
    const governor = readOptional(`/sys/devices/system/cpu/cpu${cpu}/cpufreq/scaling_governor`);
    if (governor && governor !== 'performance' && !process.env.BENCH_ALLOW_FREQUENCY_SCALING) {
      return `CPU ${cpu} scales its frequency (governor "${governor}"): set it to "performance" (cpupower frequency-set -g performance), or BENCH_ALLOW_FREQUENCY_SCALING=1 to measure anyway`;
    }
  }
  const before = cpuTimes();
  await sleep(1000);
  const after = cpuTimes();
  for (const cpu of [PINNING.serverCpu, PINNING.loadCpu]) {
    const d = delta(before, after, cpu);
    if (!d) continue;
    const share = (d.busy + d.steal) / (d.busy + d.idle + d.steal);
    if (share > MAX_BUSY_BEFORE) return `CPU ${cpu} was ${percent(share)} busy before the bench started anything: other work is running (see top); wait for it to end`;
  }
  return undefined;
}

/**
 * Reads the pinned cores around one load run: `end(serverCpuSeconds)` says what disturbed the run,
 * or undefined. `serverCpuSeconds` is the measured target's own CPU time over the run.
 */
export function watchRun() {
  const before = cpuTimes();
  const started = performance.now();
  return {
    end(serverCpuSeconds) {
      const wall = (performance.now() - started) / 1000;
      const after = cpuTimes();
      const server = delta(before, after, PINNING.serverCpu);
      const load = delta(before, after, PINNING.loadCpu);
      if (!PINNING.enabled || !server || serverCpuSeconds === undefined) return undefined;
      const foreign = (Math.max(0, server.busy - serverCpuSeconds) + server.steal) / wall;
      if (foreign > MAX_FOREIGN) return `CPU ${PINNING.serverCpu} spent ${percent(foreign)} of the run on other processes or hypervisor steal`;
      if (load && load.busy / wall >= LOAD_SATURATED && server.busy / wall < SERVER_IDLE_WHEN_SATURATED) {
        return `load generator saturated (CPU ${PINNING.loadCpu} ${percent(load.busy / wall)} busy, server core ${percent(server.busy / wall)})`;
      }
      return undefined;
    },
  };
}

function readOptional(path) {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

const percent = (share) => `${Math.round(share * 100)}%`;
