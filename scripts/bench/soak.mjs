// npm run soak: a mixed workload at 100 connections across many tenants for SOAK_SECONDS
// (120), every answer checked against its expected status; the server's RSS is read from
// /proc/<pid>/status each second. Passes when no request failed (only the expected 4xx/429),
// and RSS grew less than 10% over the last 60 s. The mix is every operation of the catalogue
// the service serves (plus its expected refusals), so it grows with the routes.
// Env: SOAK_SECONDS (120), SOAK_CONNECTIONS (100), SOAK_TENANTS (20).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RESULTS_DIR, startBenchService, startFakeProvider } from './bench-environment.mjs';
import { header } from './bench-report.mjs';
import { missingRoutes, OPERATIONS } from './operations.mjs';
import { residentMiB, runLoad } from './processes.mjs';
import { POST_SOAK_CHECKS } from './post-soak-checks.mjs';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 120);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 100);
const TENANTS = Number(process.env.SOAK_TENANTS ?? 20);
const USERS_PER_TENANT = 3;
const MAX_RSS_GROWTH = 0.1;
const say = (line) => process.stderr.write(`${line}\n`);

const provider = await startFakeProvider();
const service = await startBenchService({ providerUrl: provider.baseUrl, tenantCount: TENANTS, logName: 'soak-requests.log' });
let code = 1;
try {
  code = await soak();
} catch (error) {
  say(`soak failed: ${error.stack ?? error}`);
} finally {
  await service.stop();
  await provider.stop();
}
process.exit(code);

async function soak() {
  const included = [];
  const skipped = [];
  for (const operation of OPERATIONS) {
    const missing = missingRoutes(operation, service.served);
    (missing.length ? skipped : included).push(missing.length ? `${operation.name}: not served yet` : operation);
  }
  say(`seeding ${included.length} operations × ${TENANTS} tenants × ${USERS_PER_TENANT} users …`);
  const mix = [];
  for (const [t, api] of service.clients.entries()) {
    for (const operation of included) {
      for (let u = 0; u < USERS_PER_TENANT; u++) {
        const ctx = { user: `soak-${t}-${u}`, tag: `s${t}u${u}` };
        // An operation that adds a record per call goes in once per tenant: the embedded store's
        // growth is data, not a leak, and would otherwise swamp the RSS check.
        if (operation.growsStore && u > 0) continue;
        const request = await operation.seed(api, ctx);
        for (let w = operation.growsStore ? 1 : 4; w > 0; w--) mix.push(request);
        if (u === 0) mix.push(...(operation.rejections?.(api, ctx) ?? []));
      }
    }
  }
  shuffle(mix);
  say(`mix of ${mix.length} requests (${mix.filter((r) => !r.expect.some((s) => s < 300)).length} expected refusals); ${SECONDS} s at ${CONNECTIONS} connections`);

  const samples = [];
  const started = Date.now();
  const sampler = setInterval(async () => {
    const rss = await residentMiB(service.pid);
    if (rss !== undefined) samples.push({ t: (Date.now() - started) / 1000, rss });
  }, 1000);
  const result = await runLoad({ url: service.origin, connections: CONNECTIONS, durationSeconds: SECONDS, requests: mix, verify: true, timeoutSeconds: 10 });
  clearInterval(sampler);

  const around = (t) => median(samples.filter((s) => Math.abs(s.t - t) <= 5).map((s) => s.rss));
  const half = around(SECONDS / 2);
  const end = around(SECONDS - 3);
  const growth = half && end ? (end - half) / half : undefined;
  const fiveXX = Object.entries(result.statuses).filter(([status]) => Number(status) >= 500).reduce((n, [, count]) => n + count, 0);
  const checks = [];
  for (const check of POST_SOAK_CHECKS) {
    const missing = missingRoutes(check, service.served);
    checks.push(missing.length ? { name: check.name, skipped: `not served yet: ${missing.join(', ')}` } : { name: check.name, ...(await check.run(service)) });
  }
  const verdicts = {
    [`the service ran to the end${service.exited() ? `: ${service.exited()}` : ''}`]: !service.exited(),
    'no failed request (every answer the expected status)': result.mismatches === 0 && fiveXX === 0,
    'no connection error or timeout': result.errors === 0 && result.timeouts === 0,
    [`RSS growth over the last ${SECONDS / 2} s < ${MAX_RSS_GROWTH * 100}%`]: growth !== undefined && growth < MAX_RSS_GROWTH,
    ...Object.fromEntries(checks.filter((c) => !c.skipped).map((c) => [c.name, c.pass])),
  };
  const pass = Object.values(verdicts).every(Boolean);

  const lines = header('Soak', {}, `${CONNECTIONS} connections for ${SECONDS} s · service in production mode, request log on (to a file)`);
  lines.push(
    `${TENANTS} tenants, ${USERS_PER_TENANT} users each; operations: ${included.map((o) => o.name).join(', ')}.`,
    '',
    `| requests | req/s | p50 ms | p99 ms | statuses | unexpected | errors | timeouts |`,
    '|---:|---:|---:|---:|---|---:|---:|---:|',
    `| ${result.requests} | ${result.rps} | ${result.latencyMs.p50} | ${result.latencyMs.p99} | ${Object.entries(result.statuses).map(([s, n]) => `${s}×${n}`).join(', ')} | ${result.mismatches} | ${result.errors} | ${result.timeouts} |`,
    '',
    `RSS (MiB, median of the samples within 5 s): at ${SECONDS / 2} s ${half?.toFixed(1)}, at the end ${end?.toFixed(1)}, growth ${growth === undefined ? '–' : `${(growth * 100).toFixed(1)}%`}; min ${Math.min(...samples.map((s) => s.rss)).toFixed(1)}, max ${Math.max(...samples.map((s) => s.rss)).toFixed(1)} over ${samples.length} samples.`,
    '',
    ...Object.entries(verdicts).map(([name, ok]) => `- ${ok ? 'PASS' : 'FAIL'}: ${name}`),
    ...checks.filter((c) => c.skipped).map((c) => `- skipped: ${c.name} (${c.skipped})`),
    ...checks.filter((c) => c.detail).map((c) => `  - ${c.name}: ${c.detail}`),
    ...result.mismatchSamples.map((m) => `  - unexpected: ${m.method} ${m.path} → ${m.status} (expected ${m.expected.join('/')})`),
    ...(skipped.length ? ['', `Not in the mix yet: ${skipped.join('; ')}.`] : []),
    '',
    `**${pass ? 'PASS' : 'FAIL'}**`,
  );
  const report = lines.join('\n');
  writeFileSync(join(RESULTS_DIR, 'soak-latest.md'), `${report}\n`);
  writeFileSync(join(RESULTS_DIR, 'soak-rss.json'), `${JSON.stringify(samples)}\n`);
  process.stdout.write(`${report}\nWritten to bench-results/soak-latest.md\n`);
  return pass ? 0 : 2;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[sorted.length >> 1] : undefined;
}

/** Deterministic shuffle, so a failing mix can be replayed. */
function shuffle(list) {
  let seed = 7;
  for (let i = list.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [list[i], list[j]] = [list[j], list[i]];
  }
}
