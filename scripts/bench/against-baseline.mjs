// This tree's service against earlier commits' services, on real sockets, in one run: the
// question "did a change lose more than 0.03 of an operation's ratio to Koa?" asked directly.
// Two full `npm run bench` runs, one per tree, each divide by their own Koa reference, and that
// reference alone moves by ±6 % between runs of identical code (docs/performance-log.md, 2026-11-26):
// more than the 0.03 to be judged. Here every service and ONE Koa reference are loaded in turn,
// so the ratios of a repetition share their divisor and the difference of two ratios is the
// difference of the two services.
//   node scripts/bench/against-baseline.mjs --baseline ../bench-base [--baseline ../ctl] [--only dashboard,template]
// A `--baseline` is a built checkout with its own node_modules: its service starts from its own
// dist and is seeded by its own operation catalogue. Give a second one at this tree's commit as a
// control: its difference is what the harness reads where there is none.
// The order of the targets changes every repetition, forwards then backwards, so each target
// runs before and after each other one equally often. Each row is measured in BENCH_ROUNDS
// rounds (default 4), every service and the reference started afresh for each: a process keeps
// what it made of a route for its whole life, and one process per tree read that as the code's
// difference. Pinning, durations and connections as in bench.mjs; BENCH_REPS (default here: 16)
// shared out among the rounds. Prints a table; writes bench-results/against-baseline.md, and
// every run's req/s and CPU (and its round) to against-baseline.json.
import { writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { environmentRefusal } from './bench-guard.mjs';
import { referenceRoute } from './constant-envelope.mjs';
import { RESULTS_DIR, startBenchService, startFakeProvider } from './bench-environment.mjs';
import { DEFAULTS, measuredRun, median, problemOf, warmUp } from './interleaved-runs.mjs';
import { missingRoutes, OPERATIONS } from './operations.mjs';
import { startReference } from './processes.mjs';

const args = process.argv.slice(2);
const baselineDirs = args.flatMap((arg, i) => (arg === '--baseline' && args[i + 1] ? [resolve(args[i + 1])] : []));
const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : undefined;
const options = { ...DEFAULTS, reps: Number(process.env.BENCH_REPS ?? 16) };
/** Rounds per row, each with every process started afresh (`startRound`); the repetitions are shared out among them. */
const rounds = Math.max(1, Math.min(options.reps, Number(process.env.BENCH_ROUNDS ?? 4)));
/** How far apart the relative costs of one repetition's runs may be for it to count (`evenRepetitions`). */
const EVEN = 1.25;
const stoppers = [];
const stopAll = () => Promise.all(stoppers.splice(0).map((stop) => stop().catch(() => {})));
const shown = (value) => (value === undefined ? 'n/a' : value.toFixed(3));
const say = (line) => process.stderr.write(`${line}\n`);

async function main() {
  if (baselineDirs.length === 0) {
    say('usage: node scripts/bench/against-baseline.mjs --baseline <built checkout> [--baseline <another>] [--only a,b]');
    return 64;
  }
  const refusal = process.env.BENCH_FORCE ? undefined : await environmentRefusal();
  if (refusal) {
    say(`against-baseline: not measuring: ${refusal}`);
    return 3;
  }
  const provider = await startFakeProvider();
  stoppers.push(provider.stop);
  const trees = [{ label: 'current', catalogue: { OPERATIONS, missingRoutes }, start: startBenchService }];
  for (const [i, dir] of baselineDirs.entries()) {
    const earlier = (file) => import(pathToFileURL(join(dir, 'scripts/bench', file)).href);
    const [environment, catalogue] = [await earlier('bench-environment.mjs'), await earlier('operations.mjs')];
    trees.push({ label: `baseline ${i + 1} (${basename(dir)})`, catalogue, start: environment.startBenchService });
  }
  const labels = [...trees.map(({ label }) => label), 'koa'];
  const baselines = labels.slice(1, -1);

  const lines = [
    `Baselines: ${baselineDirs.map((dir, i) => `${i + 1} = ${dir}`).join(', ')}. ${options.reps} repetitions of ${options.durationSeconds} s per target, ${options.connections} connections, in ${rounds} rounds with every process started afresh.`,
    `"difference": current ÷ Koa − baseline ÷ Koa, each repetition's own, then the median (positive: the current tree is faster).`,
    '',
    '| operation | baseline | baseline ÷ Koa | current ÷ Koa | difference | CPU per request, current ÷ baseline | repetitions kept |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  const raw = [];
  // Rows that add a record per request (forms create) last, as in bench.mjs (each round's
  // processes are new, so this only keeps the order the same as there).
  for (const operation of [...OPERATIONS.filter((o) => !o.growsStore), ...OPERATIONS.filter((o) => o.growsStore)]) {
    if (only && !only.some((text) => operation.name.includes(text))) continue;
    // Each tree's own entry for the row (seeded by its own catalogue); a tree without one is not compared.
    const theirs = trees.map(({ catalogue }) => catalogue.OPERATIONS.find((o) => o.name === operation.name));
    if (theirs.includes(undefined)) continue;
    const name = operation.label ?? operation.name;
    const runs = Object.fromEntries(labels.map((label) => [label, []]));
    const roundOf = [];
    const kept = [];
    let rep = 0;
    for (let round = 0; round < rounds; round++) {
      const started = await startRound(trees, theirs, provider.baseUrl);
      if (!started) break; // a tree does not serve the row's routes: not compared
      if (round === 0) say(`measuring ${name} …`);
      try {
        const { targets, requests } = started;
        for (const target of targets) await warmUp(target, (seconds) => job(target, seconds, requests), options);
        const first = rep;
        for (; rep < first + repetitionsIn(round); rep++) {
          roundOf[rep] = round;
          for (const target of orderOf(targets, rep)) runs[target.label][rep] = await checkedRun(target, requests);
        }
        kept.push(...evenRepetitions(runs, labels, range(first, rep)));
      } finally {
        await started.stop();
      }
    }
    if (rep === 0) continue;
    const over = (value) => median(kept.map(value));
    const ratio = (a, b, pick = (run) => run.rps) => over((k) => pick(runs[a][k]) / pick(runs[b][k]));
    raw.push({ name, kept, round: roundOf, ...Object.fromEntries(['rps', 'cpuMicrosPerRequest'].map((field) => [field, Object.fromEntries(labels.map((label) => [label, runs[label].map((run) => run[field])]))])) });
    for (const baseline of baselines) {
      const difference = over((k) => (runs.current[k].rps - runs[baseline][k].rps) / runs.koa[k].rps);
      const cpu = ratio('current', baseline, (run) => run.cpuMicrosPerRequest);
      const line = `| ${name} | ${baseline} | ${shown(ratio(baseline, 'koa'))} | ${shown(ratio('current', 'koa'))} | ${shown(difference)} | ${shown(cpu)} | ${kept.length} of ${rep} |`;
      say(line);
      lines.push(line);
    }
  }
  const report = lines.join('\n');
  writeFileSync(join(RESULTS_DIR, 'against-baseline.md'), `${report}\n`);
  writeFileSync(join(RESULTS_DIR, 'against-baseline.json'), `${JSON.stringify(raw, null, 2)}\n`);
  process.stdout.write(`${report}\n`);
  return 0;
}

/**
 * One round of a row: every tree's service started afresh and seeded by its own catalogue, and a
 * Koa reference answering the current tree's samples. `theirs`: each tree's catalogue entry for the
 * row. Undefined (and nothing left running) when a tree does not serve the row's routes. Fresh processes per round because a process keeps what it
 * happened to make of a route: two services of one checkout, started side by side, differed on
 * one row by 0.069 of Koa (median; CPU 1.09 ×), on the same side in every repetition of a run,
 * and by +0.005 and +0.007 in the next two runs (docs/performance-log.md, "2026-11-28, 03:30-05:45
 * UTC"). Comparing one process per tree for the whole run read that luck as the code's difference.
 */
async function startRound(trees, theirs, providerUrl) {
  const stops = [];
  const stop = () => Promise.all(stops.splice(0).map((one) => one().catch(() => {})));
  try {
    const targets = [];
    const requests = {};
    let routeTable;
    for (const [i, tree] of trees.entries()) {
      const service = await tree.start({ providerUrl, logName: `against-${i}.log`, name: `against-${i}` });
      stops.push(service.stop);
      if (tree.catalogue.missingRoutes(theirs[i], service.served).length > 0) {
        await stop();
        return undefined;
      }
      const { requests: own, samples } = await seeded(tree.label, service, theirs[i]);
      if (i === 0) routeTable = own.map((request, k) => referenceRoute(request, samples[k]));
      requests[tree.label] = own;
      targets.push({ label: tree.label, origin: service.origin, pid: service.pid });
    }
    requests.koa = requests.current;
    const koa = await startReference('koa-reference', 'reference-koa.mjs', routeTable);
    stops.push(koa.stop);
    targets.push({ label: 'koa', origin: koa.origin, pid: koa.pid });
    return { targets, requests, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Repetitions in round `round`: BENCH_REPS shared out, the earlier rounds taking any remainder. */
function repetitionsIn(round) {
  return Math.floor(options.reps / rounds) + (round < options.reps % rounds ? 1 : 0);
}

const range = (from, to) => Array.from({ length: to - from }, (_, i) => from + i);

/** The row's requests for one tree's service, seeded by that tree's own catalogue, each sent once and its answer checked. */
async function seeded(label, service, operation) {
  const client = service.clients[0];
  const requests = [await operation.seed(client, { user: 'against-user', tag: 'ab' })].flat();
  const samples = await client.sendSequence(requests);
  samples.forEach((sample, k) => {
    if (!requests[k].expect.includes(sample.status)) throw new Error(`${label}, ${operation.name}: sample answered ${sample.status}: ${sample.text.slice(0, 200)}`);
  });
  return { requests, samples };
}

/**
 * Of one round's repetitions `reps`, those in which the machine ran every target undisturbed
 * (bench-guard: nothing else on the server core, the load generator keeping up) and at one speed.
 * This kind of machine halves its speed for seconds to minutes at a time (docs/performance-log.md,
 * "2026-11-26: the machine"), and a repetition in which that changed divides a fast run by a slow one. Each
 * run's CPU per request is taken relative to the lowest of its target in the round (one process);
 * a repetition counts when those relative costs are within `EVEN` of each other (all at full
 * speed, or all slowed alike). Without a CPU reading (not Linux), every undisturbed repetition counts.
 */
function evenRepetitions(runs, labels, reps) {
  const fastest = Object.fromEntries(labels.map((label) => [label, Math.min(...reps.map((rep) => runs[label][rep].cpuMicrosPerRequest ?? Infinity))]));
  return reps.filter((rep) => {
    if (labels.some((label) => runs[label][rep].disturbance !== undefined)) return false;
    const relative = labels.map((label) => runs[label][rep].cpuMicrosPerRequest / fastest[label]);
    return !(Math.max(...relative) > EVEN * Math.min(...relative));
  });
}

/** Repetition `rep`'s order: the targets rotated by `rep`, reversed every other cycle of rotations. */
function orderOf(targets, rep) {
  const rotated = targets.map((_, i) => targets[(i + rep) % targets.length]);
  return Math.floor(rep / targets.length) % 2 === 0 ? rotated : rotated.reverse();
}

const job = (target, durationSeconds, requestsOf) => ({ url: target.origin, connections: options.connections, durationSeconds, requests: requestsOf[target.label] });

/** One measured run of `target` with its own requests (the services' seeds made different ids); unexpected answers end the measurement. */
async function checkedRun(target, requestsOf) {
  const requests = requestsOf[target.label];
  const result = await measuredRun(target, job(target, options.durationSeconds, requestsOf));
  const problem = problemOf(result, [...new Set(requests.flatMap((request) => request.expect ?? [200]))]);
  if (problem) throw new Error(`${target.label}: ${problem}`);
  return result;
}

main()
  .then(async (code) => {
    await stopAll();
    process.exit(code);
  })
  .catch(async (error) => {
    say(error.stack ?? String(error));
    await stopAll();
    process.exit(1);
  });
