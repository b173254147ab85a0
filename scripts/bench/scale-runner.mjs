// Runs the scale scenarios: one service instance per size (all on the server core, loaded one
// at a time), seeded through the API, loaded interleaved; each size's throughput must stay at
// least `minRatio` of the smallest size's. A scenario with `variants` loads several requests on
// each size: a variant is compared with the same variant at the smallest size, or (`against`)
// with another variant at the same size (a list's last page with its first); `perRecord`
// compares records per second (an export of N records against one of the smallest N);
// `maxRssGrowthMiB` bounds the service's RSS growth while it is loaded, at the sizes from
// `rssJudgedFrom` on when that is given (below it the growth is reported, not judged). Every row
// reports the service's RSS before its runs and at their peak. A row the machine disturbed
// (bench-guard.mjs: another process on the server core, which includes another instance still
// busy there, or a saturated load generator) is reported as not measured, as in the main bench. Writes
// bench-results/scale-latest.md.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RESULTS_DIR, startBenchService, startFakeProvider } from './bench-environment.mjs';
import { fmt, header } from './bench-report.mjs';
import { DEFAULTS, interleavedRuns, pairedRatio, summarise } from './interleaved-runs.mjs';
import { missingRoutes } from './operations.mjs';
import { residentMiB, runLoad } from './processes.mjs';
import { SCALE_SCENARIOS } from './scale-scenarios.mjs';

export async function runScaleScenarios({ stoppers, say, only }) {
  const cap = Number(process.env.BENCH_SCALE_MAX ?? Infinity);
  const provider = await startFakeProvider();
  stoppers.push(provider.stop);
  const probe = await startBenchService({ providerUrl: provider.baseUrl, name: 'probe', logName: 'scale-probe.log' });
  const served = probe.served;
  await probe.stop();

  const lines = header('Scale scenarios: throughput as data grows', DEFAULTS);
  let failed = false;
  let disturbed = false;
  for (const scenario of SCALE_SCENARIOS) {
    if (only && !only.some((text) => scenario.name.includes(text))) continue;
    const missing = missingRoutes(scenario, served);
    lines.push(`## ${scenario.name}`, '');
    if (missing.length) {
      lines.push(`Skipped: not served yet: ${missing.join(', ')}`, '');
      say(`skipped ${scenario.name}: not served yet (${missing.join(', ')})`);
      continue;
    }
    const sizes = scenario.sizes.filter((size) => size <= cap);
    const instances = [];
    const seedTimes = [];
    try {
      for (const size of sizes) {
        const service = await startBenchService({ providerUrl: provider.baseUrl, name: `service-${size}`, logName: `scale-${size}.log` });
        instances.push(service);
        stoppers.push(service.stop); // so Ctrl-C stops it too
        say(`seeding ${scenario.name}, N = ${size} …`);
        const started = Date.now();
        const seeded = await scenario.seed(service.clients[0], size, (requests, amount) => bulkSeed(service, requests, amount));
        const seconds = (Date.now() - started) / 1000;
        say(`  seeded in ${seconds.toFixed(1)} s`);
        seedTimes.push(`N = ${size.toLocaleString('en')}: ${seconds.toFixed(0)} s`);
        service.variants = seeded.variants ?? { '': seeded };
      }
      // Ids differ between instances, so each target loads its own request.
      const targets = instances.flatMap((service, i) =>
        Object.entries(service.variants).map(([variant, request]) => ({ label: `${sizes[i]} ${variant}`, size: sizes[i], variant, request, origin: service.origin, pid: service.pid, exited: service.exited })),
      );
      const runs = await interleavedPerTarget(targets);
      lines.push(...budgetLines(scenario, sizes[0]), '');
      lines.push('| N | variant | req/s per repetition | median req/s | p50 ms | p99 ms | server CPU µs per request (per record) | RSS MiB before → peak | compared with | ratio | result |', '|---:|---|---|---:|---:|---:|---:|---:|---|---:|---|');
      for (const target of targets) {
        const rules = scenario.variants?.[target.variant] ?? {};
        const base = targets.find((t) => (rules.against ? t.size === target.size && t.variant === rules.against : t.size === sizes[0] && t.variant === target.variant));
        const s = summarise(runs[target.label].runs);
        const ratio = pairedRatio(runs[target.label].runs, runs[base.label].runs) * (rules.perRecord ? target.size / base.size : 1);
        const { before, peak } = runs[target.label].rss;
        const growth = peak - before;
        const rssJudged = rules.maxRssGrowthMiB !== undefined && target.size >= (rules.rssJudgedFrom ?? 0);
        const rssOk = !rssJudged || (Number.isFinite(growth) && growth <= rules.maxRssGrowthMiB);
        const pass = runs[target.label].problems.length === 0 && ratio >= scenario.minRatio && rssOk;
        // Runs the machine disturbed, of this row or of the row it is compared with, make no verdict.
        const disturbance = [...runs[target.label].disturbed, ...(base === target ? [] : runs[base.label].disturbed.map((d) => `${base.label}: ${d}`))];
        if (disturbance.length) disturbed = true;
        else failed ||= !pass;
        const verdict = disturbance.length ? `NOT MEASURED (${disturbance[0]})` : pass ? 'PASS' : 'FAIL';
        const compared = base === target ? '—' : `N = ${base.size.toLocaleString('en')}${base.variant ? `, ${base.variant}` : ''}`;
        lines.push(
          `| ${target.size.toLocaleString('en')} | ${target.variant} | ${s.runsRps.map(fmt.rps).join(', ')} | ${fmt.rps(s.rps)} | ${fmt.ms(s.p50)} | ${fmt.ms(s.p99)} | ${cpuText(s.cpuPerRequest, rules.perRecord ? target.size : undefined)} | ${rssText(before, peak)} | ${compared} | ${fmt.ratio(ratio)} | ${verdict} |`,
        );
        for (const problem of runs[target.label].problems) lines.push(`- invalid: ${problem}`);
        if (!rssOk) lines.push(`- RSS grew ${growth.toFixed(1)} MiB while loaded, over ${rules.maxRssGrowthMiB} MiB`);
      }
      lines.push('', `Seeding over HTTP: ${seedTimes.join(', ')}.`, '');
    } catch (error) {
      failed = true;
      lines.push(`Could not be measured: ${error.message}`, '');
    } finally {
      await Promise.all(instances.map((s) => s.stop()));
    }
  }
  const report = lines.join('\n');
  writeFileSync(join(RESULTS_DIR, 'scale-latest.md'), `${report}\n`);
  process.stdout.write(`${report}\nWritten to bench-results/scale-latest.md\n`);
  return failed ? 2 : disturbed ? 3 : 0;
}

/**
 * Sends exactly `amount` requests (the list in turn, per connection) through the load generator on
 * the load core, up to 64 keep-alive connections; every answer must be its expected status. A
 * list whose later requests use what an earlier one captured must run whole on every connection,
 * so the connections then divide `amount` into whole rounds.
 */
async function bulkSeed(service, requests, amount) {
  const round = requests.some((r) => r.capture) ? requests.length : 1;
  let connections = Math.min(64, amount);
  while (connections > 1 && amount % (connections * round) !== 0) connections--;
  const result = await runLoad({ url: service.origin, connections, amount, requests, verify: true, timeoutSeconds: 30 });
  const failed = result.mismatches + result.errors + result.timeouts;
  if (failed > 0 || result.requests !== amount) {
    throw new Error(`bulk seeding sent ${result.requests} of ${amount}: ${result.mismatches} unexpected answers ${JSON.stringify(result.mismatchSamples.slice(0, 3))}, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return result;
}

/** What a scenario's rows are judged by. */
function budgetLines(scenario, smallest) {
  if (!scenario.variants) return [`Budget: every size ≥ ${scenario.minRatio} × the throughput at N = ${smallest.toLocaleString('en')}.`];
  return Object.entries(scenario.variants).map(([variant, rules]) => {
    const against = rules.against ? `the ${rules.against} at the same N` : `the ${variant} at N = ${smallest.toLocaleString('en')}`;
    const unit = rules.perRecord ? 'records per second' : 'throughput';
    const where = rules.rssJudgedFrom === undefined ? '' : ` at N ≥ ${rules.rssJudgedFrom.toLocaleString('en')} (below, reported only)`;
    const rss = rules.maxRssGrowthMiB === undefined ? '' : `; the service's RSS grows at most ${rules.maxRssGrowthMiB} MiB while loaded${where}`;
    return `- ${variant}: ${unit} ≥ ${scenario.minRatio} × ${against}${rss}.`;
  });
}

/** The server's CPU per request, and per record for a variant judged per record. */
const cpuText = (micros, records) => {
  if (micros === undefined) return 'n/a';
  return records === undefined ? micros.toFixed(0) : `${micros.toFixed(0)} (${(micros / records).toFixed(2)})`;
};

const rssText = (before, peak) => (Number.isFinite(before) && Number.isFinite(peak) ? `${before.toFixed(0)} → ${peak.toFixed(0)} (+${(peak - before).toFixed(1)})` : 'n/a');

/**
 * Like interleavedRuns, but each target has its own request (its own ids); the service's RSS is
 * read before a target's first run and every 100 ms while it is loaded (`rss: { before, peak }`).
 */
async function interleavedPerTarget(targets) {
  const results = {};
  for (let rep = 0; rep < DEFAULTS.reps; rep++) {
    for (let i = 0; i < targets.length; i++) {
      const target = targets[(i + rep) % targets.length];
      results[target.label] ??= { runs: [], problems: [], disturbed: [], rss: { before: await residentMiB(target.pid), peak: -Infinity } };
      const sampler = sampleRss(target.pid, results[target.label].rss);
      const one = await interleavedRuns([target], target.request, { ...DEFAULTS, reps: 1, warmupSeconds: rep === 0 ? DEFAULTS.warmupSeconds : 0 }).finally(() => sampler.stop());
      await sampler.stopped;
      results[target.label].runs[rep] = one[target.label].runs[0];
      results[target.label].problems.push(...one[target.label].problems.map((p) => p.replace('run 1', `run ${rep + 1}`)));
      results[target.label].disturbed.push(...one[target.label].disturbed.map((d) => d.replace('run 1', `run ${rep + 1}`)));
    }
  }
  return results;
}

/** Raises `rss.peak` to the process's RSS every 100 ms until stopped. */
function sampleRss(pid, rss) {
  let running = true;
  const stopped = (async () => {
    while (running) {
      const now = await residentMiB(pid);
      if (now !== undefined) rss.peak = Math.max(rss.peak, now);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return { stop: () => (running = false), stopped };
}
