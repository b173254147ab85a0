// One operation on the service, the Koa reference and the contract's least (reference-minimum.mjs:
// a Koa app doing only what the contract asks of the operation), interleaved as npm run bench
// measures a row; translate also against its floor. Each `--without` adds a copy of the minimum
// that leaves those parts out, to see what they cost. Prints each target's req/s and CPU per
// request, and each one's ratio to Koa (median of the repetitions' ratios).
//   node scripts/bench/contract-minimum.mjs ["<operation>"] [--without ajv,normalize ...]
// Operations: "POST /forms/create" (the default), "PATCH /<kind>/update/{id}" (forms, articles,
// categories, authors), "POST /forms/submission/{id}/relations/{fieldName}/connect",
// "DELETE /articles/delete/{id}" and "DELETE /authors/delete/{id}" (the create + delete pairs),
// "DELETE /forms/submission/{id}" (the submit + erase pairs), "POST /ai/translate",
// "PUT /ai/repurpose/template".
import { join } from 'node:path';
import { RESULTS_DIR, seededOperation } from './bench-environment.mjs';
import { interleavedRuns, pairedRatio, summarise } from './interleaved-runs.mjs';
import { MINIMUM_OPERATIONS, minimumSeed, startMinimum } from './minimum-seed.mjs';
import { startKoaCallReference, startReference } from './processes.mjs';

const args = process.argv.slice(2);
const name = args[0] && !args[0].startsWith('--') ? args[0] : MINIMUM_OPERATIONS[0];
const variants = ['', ...args.flatMap((arg, i) => (args[i - 1] === '--without' ? [arg] : []))];
if (!MINIMUM_OPERATIONS.includes(name)) {
  process.stderr.write(`usage: contract-minimum.mjs ["<operation>"] [--without <parts> ...]; operations: ${MINIMUM_OPERATIONS.join(', ')}\n`);
  process.exit(1);
}

const stoppers = [];
try {
  const { provider, service, requests, table } = await seededOperation(name, 'minimum', stoppers);
  const koa = await startReference('koa', 'reference-koa.mjs', table);
  stoppers.push(koa.stop);
  const targets = [{ label: 'service', origin: service.origin, pid: service.pid }, { label: 'koa', origin: koa.origin, pid: koa.pid }];
  if (name === 'POST /ai/translate') {
    const floor = await startKoaCallReference(table, provider.baseUrl);
    stoppers.push(floor.stop);
    targets.push({ label: 'floor', origin: floor.origin, pid: floor.pid });
  }
  // The connect's, the form update's and the submit + erase pairs' minimum hold the records the
  // service's seed made: the sources, the related submissions and their form; the form being
  // updated; the form submitted to.
  const seed = await minimumSeed(name, service.clients[0], requests[0]);
  for (const without of variants) {
    const minimum = await startMinimum({
      name: `minimum${without ? ` without ${without}` : ''}`,
      skip: without,
      tenants: service.tenants,
      providerUrl: provider.baseUrl,
      log: join(RESULTS_DIR, 'minimum-requests.log'),
      seed,
    });
    stoppers.push(minimum.stop);
    targets.push({ label: minimum.name, origin: minimum.origin, pid: minimum.pid });
  }
  const results = await interleavedRuns(targets, requests);
  process.stdout.write(`${name}, ${new Date().toISOString()}\n`);
  for (const { label } of targets) {
    const { rps, cpuPerRequest, systemShare, faultsPerRequest, helperShare } = summarise(results[label].runs);
    // Where the CPU went, when /proc could be read: the kernel's share, fresh pages a request, the helper threads' share.
    const split = systemShare === undefined ? '' : ` (kernel ${Math.round(systemShare * 100)}%, ${faultsPerRequest.toFixed(2)} faults/req, helpers ${Math.round(helperShare * 100)}%)`;
    const ratios = label === 'koa' ? '' : ` · ÷ koa ${pairedRatio(results[label].runs, results.koa.runs).toFixed(2)}${results.floor && label !== 'floor' ? ` · ÷ floor ${pairedRatio(results[label].runs, results.floor.runs).toFixed(2)}` : ''}`;
    const problems = [...results[label].problems, ...results[label].disturbed];
    process.stdout.write(`${label.padEnd(40)} ${String(Math.round(rps)).padStart(6)} req/s · CPU ${cpuPerRequest?.toFixed(0)} µs/req${split}${ratios}${problems.length ? ` (${problems.join('; ')})` : ''}\n`);
  }
} finally {
  await Promise.all(stoppers.map((stop) => stop().catch(() => {})));
}
