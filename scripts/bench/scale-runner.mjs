// Runs the scale scenarios: one service instance per size (all on the server core, loaded one
// at a time), seeded through the API, loaded interleaved; each size's throughput must stay at
// least `minRatio` of the smallest size's. Writes bench-results/scale-latest.md.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RESULTS_DIR, startBenchService, startFakeProvider } from './bench-environment.mjs';
import { fmt, header } from './bench-report.mjs';
import { DEFAULTS, interleavedRuns, pairedRatio, summarise } from './interleaved-runs.mjs';
import { missingRoutes } from './operations.mjs';
import { runLoad } from './processes.mjs';
import { SCALE_SCENARIOS } from './scale-scenarios.mjs';

export async function runScaleScenarios({ stoppers, say }) {
  const cap = Number(process.env.BENCH_SCALE_MAX ?? Infinity);
  const provider = await startFakeProvider();
  stoppers.push(provider.stop);
  const probe = await startBenchService({ providerUrl: provider.baseUrl, name: 'probe', logName: 'scale-probe.log' });
  const served = probe.served;
  await probe.stop();

  const lines = header('Scale scenarios: throughput as data grows', DEFAULTS);
  let failed = false;
  for (const scenario of SCALE_SCENARIOS) {
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
        const request = await scenario.seed(service.clients[0], size, (requests, amount) => bulkSeed(service, requests, amount));
        const seconds = (Date.now() - started) / 1000;
        say(`  seeded in ${seconds.toFixed(1)} s`);
        seedTimes.push(`N = ${size.toLocaleString('en')}: ${seconds.toFixed(0)} s`);
        service.request = request;
      }
      const targets = instances.map((service, i) => ({ label: String(sizes[i]), origin: service.origin, pid: service.pid, exited: service.exited }));
      // Ids differ between instances, so each target loads its own request.
      const runs = await interleavedPerTarget(targets, instances.map((s) => s.request));
      const smallest = targets[0].label;
      lines.push(`Budget: every size ≥ ${scenario.minRatio} × the throughput at N = ${smallest}.`, '');
      lines.push('| N | req/s per repetition | median req/s | p50 ms | p99 ms | ÷ smallest | result |', '|---:|---|---:|---:|---:|---:|---|');
      for (const target of targets) {
        const s = summarise(runs[target.label].runs);
        const ratio = pairedRatio(runs[target.label].runs, runs[smallest].runs);
        const pass = runs[target.label].problems.length === 0 && ratio >= scenario.minRatio;
        failed ||= !pass;
        lines.push(`| ${Number(target.label).toLocaleString('en')} | ${s.runsRps.map(fmt.rps).join(', ')} | ${fmt.rps(s.rps)} | ${fmt.ms(s.p50)} | ${fmt.ms(s.p99)} | ${fmt.ratio(ratio)} | ${pass ? 'PASS' : 'FAIL'} |`);
        for (const problem of runs[target.label].problems) lines.push(`- invalid: ${problem}`);
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
  return failed ? 2 : 0;
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

/** Like interleavedRuns, but each target has its own request (its own ids). */
async function interleavedPerTarget(targets, requests) {
  const results = {};
  for (let rep = 0; rep < DEFAULTS.reps; rep++) {
    for (let i = 0; i < targets.length; i++) {
      const k = (i + rep) % targets.length;
      const one = await interleavedRuns([targets[k]], requests[k], { ...DEFAULTS, reps: 1, warmupSeconds: rep === 0 ? DEFAULTS.warmupSeconds : 0 });
      results[targets[k].label] ??= { runs: [], problems: [] };
      results[targets[k].label].runs[rep] = one[targets[k].label].runs[0];
      results[targets[k].label].problems.push(...one[targets[k].label].problems.map((p) => p.replace('run 1', `run ${rep + 1}`)));
    }
  }
  return results;
}
