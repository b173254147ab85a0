// npm run soak: a mixed workload at 100 connections across many tenants for SOAK_SECONDS
// (120), every answer checked against its expected status; the server's RSS is read from
// /proc/<pid>/status each second. The mix is every operation of the catalogue the service
// serves, sent by users and (where the operation has guests) by guests with a CAPTCHA token
// (provider `none`) and a guest id, plus the expected refusals. Guests go over
// GUEST_REACTION_LIMIT within each window, so their writes answer 200 or, past the limit, 429.
// Passes when no request failed (only the expected 4xx/429), the RSS peaks of the last half are
// within 10% of the first half's and the heap kept after a full GC grew < 10% from mid-run, and the post-soak checks pass: among them the reaction recount, run inside the
// service process over IPC (service-with-maintenance.mjs), must find no drift in any tenant.
// One tenant in two registers a webhook to a receiver the soak runs on 127.0.0.1; after the
// load the outbox must drain and every event reach it, signed (soak-webhooks.mjs).
// Env: SOAK_SECONDS (120), SOAK_CONNECTIONS (100), SOAK_TENANTS (20), SOAK_GUEST_LIMIT (200),
// SOAK_GUEST_WINDOW (30 s).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RESULTS_DIR, startBenchService, startFakeProvider } from './bench-environment.mjs';
import { header } from './bench-report.mjs';
import { missingRoutes, OPERATIONS } from './operations.mjs';
import { residentMiB, runLoad } from './processes.mjs';
import { POST_SOAK_CHECKS } from './post-soak-checks.mjs';
import { registerSoakWebhooks, SOAK_WEBHOOK_ENV, WEBHOOK_ROUTES, WEBHOOK_SHARE } from './soak-webhooks.mjs';
import { startWebhookReceiver } from './webhook-receiver.mjs';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 120);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 100);
const TENANTS = Number(process.env.SOAK_TENANTS ?? 20);
const USERS_PER_TENANT = 3;
const GUESTS_PER_TENANT = 2;
// Short windows, so guests both pass and reach the limit in every window, and windows roll over during the run.
const GUEST_LIMIT = process.env.SOAK_GUEST_LIMIT ?? '200';
const GUEST_WINDOW = process.env.SOAK_GUEST_WINDOW ?? '30';
const MAX_RSS_GROWTH = 0.1;
const say = (line) => process.stderr.write(`${line}\n`);

const provider = await startFakeProvider();
const receiver = await startWebhookReceiver();
const service = await startBenchService({
  providerUrl: provider.baseUrl,
  tenantCount: TENANTS,
  logName: 'soak-requests.log',
  maintenance: true,
  // --expose-gc: the memory reading at the end is taken after a full collection.
  nodeArgs: ['--expose-gc'],
  env: { GUEST_REACTION_LIMIT: GUEST_LIMIT, GUEST_REACTION_WINDOW_SECONDS: GUEST_WINDOW, ...SOAK_WEBHOOK_ENV },
});
let code = 1;
try {
  code = await soak();
} catch (error) {
  say(`soak failed: ${error.stack ?? error}`);
} finally {
  await service.stop();
  await provider.stop();
  await receiver.stop();
}
process.exit(code);

async function soak() {
  const included = [];
  const skipped = [];
  for (const operation of OPERATIONS) {
    const missing = missingRoutes(operation, service.served);
    (missing.length ? skipped : included).push(missing.length ? `${operation.name}: not served yet` : operation);
  }
  const webhooks = WEBHOOK_ROUTES.every((route) => service.served.has(route)) ? await registerSoakWebhooks(service.clients, receiver) : [];
  say(`seeding ${included.length} operations × ${TENANTS} tenants × (${USERS_PER_TENANT} users + ${GUESTS_PER_TENANT} guests where the operation has guests) …`);
  const perTenant = await Promise.all(service.clients.map((api, t) => seedTenant(api, t, included)));
  // Sequences (a create and its delete) stay together; autocannon sends the whole list in turn on each connection.
  const sequences = perTenant.flat();
  shuffle(sequences);
  const mix = sequences.flat();
  const guestShare = mix.filter((r) => r.group).length;
  say(`mix of ${mix.length} requests (${guestShare} as guests, ${mix.filter((r) => !r.expect.some((s) => s < 300)).length} expected refusals); ${SECONDS} s at ${CONNECTIONS} connections`);

  const samples = [];
  const started = Date.now();
  const sampler = setInterval(async () => {
    const rss = await residentMiB(service.pid);
    if (rss !== undefined) samples.push({ t: (Date.now() - started) / 1000, rss });
  }, 1000);
  // The heap the service keeps after a full collection, at mid-run and at the end: what a leak grows.
  let memoryAtHalf;
  const halfway = setTimeout(async () => (memoryAtHalf = (await service.call({ type: 'memory' })).memory), (SECONDS / 2) * 1000);
  const result = await runLoad({ url: service.origin, connections: CONNECTIONS, durationSeconds: SECONDS, requests: mix, verify: true, timeoutSeconds: 10 });
  clearInterval(sampler);
  clearTimeout(halfway);

  const around = (t) => median(samples.filter((s) => Math.abs(s.t - t) <= 5).map((s) => s.rss));
  const half = around(SECONDS / 2);
  const end = around(SECONDS - 3);
  // RSS follows the collector's sawtooth (the old generation fills with garbage, then a major
  // collection empties it): two points on it measure its phase. The peaks of the two halves are
  // compared instead; a leak raises the later ones.
  const peakOf = (from, to) => Math.max(...samples.filter((s) => s.t > from && s.t <= to).map((s) => s.rss));
  const firstPeak = peakOf(0, SECONDS / 2);
  const lastPeak = peakOf(SECONDS / 2, SECONDS + 5);
  const growth = Number.isFinite(firstPeak) && Number.isFinite(lastPeak) ? (lastPeak - firstPeak) / firstPeak : undefined;
  const fiveXX = Object.entries(result.statuses).filter(([status]) => Number(status) >= 500).reduce((n, [, count]) => n + count, 0);
  const memoryAtEnd = (await service.call({ type: 'memory' })).memory;
  const retainedGrowth = memoryAtHalf ? (memoryAtEnd.heapUsed - memoryAtHalf.heapUsed) / memoryAtHalf.heapUsed : undefined;
  const checks = [];
  for (const check of POST_SOAK_CHECKS) {
    const missing = missingRoutes(check, service.served);
    checks.push(missing.length ? { name: check.name, skipped: `not served yet: ${missing.join(', ')}` } : { name: check.name, ...(await check.run(service, { receiver, webhooks })) });
  }
  const verdicts = {
    [`the service ran to the end${service.exited() ? `: ${service.exited()}` : ''}`]: !service.exited(),
    'no failed request (every answer the expected status)': result.mismatches === 0 && fiveXX === 0,
    'no connection error or timeout': result.errors === 0 && result.timeouts === 0,
    [`RSS peak of the last ${SECONDS / 2} s within ${MAX_RSS_GROWTH * 100}% of the first ${SECONDS / 2} s's`]: growth !== undefined && growth < MAX_RSS_GROWTH,
    [`heap kept after a full GC grew < ${MAX_RSS_GROWTH * 100}% from mid-run to the end`]: retainedGrowth !== undefined && retainedGrowth < MAX_RSS_GROWTH,
    // Guests must have engaged (200) and met the limit (429), or the mix did not test what it says.
    'guest writes were both served (200) and limited (429)': !guestShare || (result.groups?.['guest writes']?.[200] > 0 && result.groups?.['guest writes']?.[429] > 0),
    ...Object.fromEntries(checks.filter((c) => !c.skipped).map((c) => [c.name, c.pass])),
  };
  const pass = Object.values(verdicts).every(Boolean);

  const lines = header('Soak', {}, `${CONNECTIONS} connections for ${SECONDS} s · service in production mode, request log on (to a file)`);
  lines.push(
    `${TENANTS} tenants, ${USERS_PER_TENANT} users each, and ${GUESTS_PER_TENANT} guests each on the operations guests use (GUEST_REACTION_LIMIT ${GUEST_LIMIT} per ${GUEST_WINDOW} s window: past it a guest write answers 429, as expected). Mix of ${mix.length} requests, ${guestShare} of them as guests; operations: ${included.map((o) => o.label ?? o.name).join(', ')}.`,
    '',
    `| requests | req/s | p50 ms | p99 ms | statuses | unexpected | errors | timeouts |`,
    '|---:|---:|---:|---:|---|---:|---:|---:|',
    `| ${result.requests} | ${result.rps} | ${result.latencyMs.p50} | ${result.latencyMs.p99} | ${Object.entries(result.statuses).map(([s, n]) => `${s}×${n}`).join(', ')} | ${result.mismatches} | ${result.errors} | ${result.timeouts} |`,
    '',
    `RSS (MiB): peak of the first half ${firstPeak.toFixed(1)}, of the last half ${lastPeak.toFixed(1)}, growth ${growth === undefined ? '–' : `${(growth * 100).toFixed(1)}%`}; median of the samples within 5 s of mid-run ${half?.toFixed(1)} and of the end ${end?.toFixed(1)} (points on the collector's sawtooth, for information); min ${Math.min(...samples.map((s) => s.rss)).toFixed(1)}, max ${Math.max(...samples.map((s) => s.rss)).toFixed(1)} over ${samples.length} samples. Heap used after a full GC: at mid-run ${memoryAtHalf ? mib(memoryAtHalf.heapUsed) : '–'} MiB, after the run ${mib(memoryAtEnd.heapUsed)} MiB (growth ${retainedGrowth === undefined ? '–' : `${(retainedGrowth * 100).toFixed(1)}%`}); RSS after the run ${mib(memoryAtEnd.rss)} MiB.`,
    '',
    webhooks.length
      ? `Webhooks: ${webhooks.length} of ${TENANTS} tenants (one in ${WEBHOOK_SHARE}) registered one to a receiver on 127.0.0.1 that verifies each signature and answers 500 to the first attempt of about one event in 25; ${checks.find((c) => c.deliveries !== undefined)?.deliveries ?? 'no'} deliveries received (distinct events answered 2xx).`
      : 'Webhooks: not served yet, none registered.',
    '',
    ...Object.entries(result.groups ?? {}).map(([group, statuses]) => `- ${group}: ${Object.entries(statuses).map(([st, n]) => `${st}×${n}`).join(', ')}.`),
    '',
    ...Object.entries(verdicts).map(([name, ok]) => `- ${ok ? 'PASS' : 'FAIL'}: ${name}`),
    ...checks.filter((c) => c.skipped).map((c) => `- skipped: ${c.name} (${c.skipped})`),
    ...checks.filter((c) => c.detail).map((c) => `  - ${c.name}: ${c.detail}`),
    ...result.mismatchSamples.map((m) => `  - unexpected: ${m.method} ${m.path} → ${m.status} (expected ${m.expected.join('/')})`),
    ...(result.timeoutSamples ?? []).map((t) => `  - timed out waiting for: ${t.method} ${t.path}`),
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

/** One tenant's share of the mix: each operation seeded for its users and, where it has guests, its guests. */
async function seedTenant(api, t, operations) {
  const mix = [];
  for (const operation of operations) {
    // An operation that adds a record per call, or weighs a lot (an export), is sent by one user per tenant only (see growsStore, rare).
    const once = operation.growsStore || operation.rare;
    const users = once ? 1 : USERS_PER_TENANT;
    for (let u = 0; u < users; u++) {
      const ctx = { user: `soak-${t}-${u}`, tag: `s${t}u${u}` };
      const requests = [await operation.seed(api, ctx)].flat();
      for (let w = once ? 1 : 4; w > 0; w--) mix.push(requests);
      if (u === 0) mix.push(...(operation.rejections?.(api, ctx) ?? []).map((r) => [r]));
    }
    if (!operation.guests) continue;
    for (let g = 0; g < GUESTS_PER_TENANT; g++) {
      const ctx = { user: undefined, guest: `soak-guest-${t}-${g}`, tag: `s${t}g${g}` };
      const requests = [await operation.seed(api, ctx)].flat().map((request) => ({ ...request, group: request.method === 'GET' ? 'guest reads' : 'guest writes' }));
      for (let w = 4; w > 0; w--) mix.push(requests);
    }
  }
  return mix;
}

function mib(bytes) {
  return (bytes / 2 ** 20).toFixed(1);
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
