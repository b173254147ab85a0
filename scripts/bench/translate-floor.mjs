// How much of translate's budget the provider call itself takes: the service, the Koa reference,
// and the Koa reference plus one provider call per request through the service's own provider
// adapter ("Koa + call"), loaded in turn as npm run bench loads them. "Koa + call ÷ Koa" is the
// ratio a service with no cost of its own beyond the call would reach. npm run bench measures
// translate against this floor in every run; this script shows the three side by side alone.
//   node scripts/bench/translate-floor.mjs
import { seededOperation } from './bench-environment.mjs';
import { interleavedRuns, pairedRatio, summarise } from './interleaved-runs.mjs';
import { startKoaCallReference, startReference } from './processes.mjs';

const stoppers = [];
try {
  const { provider, service, requests, table } = await seededOperation('POST /ai/translate', 'floor', stoppers);
  const koa = await startReference('koa', 'reference-koa.mjs', table);
  stoppers.push(koa.stop);
  const call = await startKoaCallReference(table, provider.baseUrl);
  stoppers.push(call.stop);
  const targets = [
    { label: 'service', origin: service.origin, pid: service.pid },
    { label: 'koa', origin: koa.origin, pid: koa.pid },
    { label: 'koa + call', origin: call.origin, pid: call.pid },
  ];
  const results = await interleavedRuns(targets, requests);
  for (const [label, result] of Object.entries(results)) {
    const s = summarise(result.runs);
    process.stdout.write(`${label.padEnd(11)} ${Math.round(s.rps)} req/s, CPU ${s.cpuPerRequest?.toFixed(0)} µs/req${result.problems.length ? ` (${result.problems.join('; ')})` : ''}\n`);
  }
  process.stdout.write(`koa + call ÷ koa ${pairedRatio(results['koa + call'].runs, results.koa.runs).toFixed(2)}, service ÷ koa ${pairedRatio(results.service.runs, results.koa.runs).toFixed(2)}, service ÷ (koa + call) ${pairedRatio(results.service.runs, results['koa + call'].runs).toFixed(2)}\n`);
} finally {
  await Promise.all(stoppers.map((stop) => stop().catch(() => {})));
}
