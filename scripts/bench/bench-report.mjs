// Turns measurements into the markdown the harness prints and writes to bench-results/:
// a summary table (ratios and verdicts), one table per operation, and the skipped entries.
import { cpus, loadavg } from 'node:os';
import { SETTLED_HELPER_SHARE } from './interleaved-runs.mjs';
import { describePinning } from './processes.mjs';

const fmt = {
  rps: (v) => (v === undefined ? '–' : v >= 10_000 ? `${(v / 1000).toFixed(1)}k` : String(Math.round(v))),
  ms: (v) => (v === undefined ? '–' : v.toFixed(2)),
  ratio: (v) => (v === undefined ? '–' : v.toFixed(2)),
  us: (v) => (v === undefined ? '–' : String(Math.round(v))),
  percent: (share) => (share === undefined ? '–' : `${Math.round(share * 100)}%`),
};

/** Title, machine, pinning, load average (other work on the machine shows there) and the run's shape. */
export function header(title, options, runLine) {
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  return [
    `# ${title}`,
    '',
    `${new Date().toISOString()} · ${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length} · Node ${process.version} · ${describePinning()} · load average at the end ${load}`,
    runLine ??
      `${options.connections} connections · ${options.reps} interleaved repetitions of ${options.durationSeconds} s after a warm-up of ${options.warmupSeconds} s per target, up to ${options.settleMaxSeconds} s longer while its helper threads still take over ${Math.round(SETTLED_HELPER_SHARE * 100)}% of its CPU (V8 compiling) · service in production mode, request log on (to a file)`,
    '',
  ];
}

export function operationsReport(evaluations, options) {
  const lines = header('Service throughput against the references', options);
  lines.push(
    'Ratios are medians of per-repetition ratios (service run ÷ reference run of the same repetition); p99 factor is median service p99 ÷ median Koa-reference p99. CPU µs/request is the server process\'s user+system time over a run divided by its requests (a diagnostic that does not depend on the load generator keeping up; not a budget). "Floor" is the Koa reference plus the same AI provider call through the service\'s adapter: translate is judged against it.',
    '',
    '| operation | kind | service req/s | Koa ref req/s | bare req/s | service ÷ Koa | service ÷ bare | service ÷ floor | p99 ms (service / Koa) | CPU µs/req (service / Koa / bare) | budget | result |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
  );
  const measured = evaluations.filter((e) => e.status === 'measured');
  for (const e of measured) {
    lines.push(
      `| ${e.name} | ${e.kind} | ${fmt.rps(e.service.rps)} | ${fmt.rps(e.koa.rps)} | ${fmt.rps(e.bare.rps)} | ${fmt.ratio(e.ratioKoa)} | ${fmt.ratio(e.ratioBare)}${e.bareDisturbed ? ' ²' : ''} | ${fmt.ratio(e.ratioFloor)} | ${fmt.ms(e.service.p99)} / ${fmt.ms(e.koa.p99)} | ${fmt.us(e.service.cpuPerRequest)} / ${fmt.us(e.koa.cpuPerRequest)} / ${fmt.us(e.bare.cpuPerRequest)} | ${budgetText(e)} | ${e.pass ? 'PASS' : 'FAIL'}${e.problems.length ? ' (invalid run)' : ''} |`,
    );
  }
  if (measured.some((e) => e.bareDisturbed)) {
    lines.push('', '² The load generator could not keep up with the bare server (or another process took its core) in some repetition: that column understates the floor. The verdict is computed from the service and reference runs only.');
  }
  lines.push('');
  for (const e of measured) {
    lines.push(`## ${e.name}`, '', `${e.kind}: budget ${budgetText(e)} its p99. Request: ${e.requestLine}`, '');
    if (e.note) lines.push(`What this row measures: ${e.note}`, '');
    lines.push('| target | req/s per repetition | median req/s | p50 ms | p99 ms | CPU µs/request | kernel share of CPU | page faults/request | helper threads\' share of CPU | warm-up s |', '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    const rows = [['service', e.service], ['Koa reference', e.koa], ['bare node:http', e.bare], ...(e.floor ? [['floor (Koa + provider call)', e.floor]] : [])];
    for (const [label, s] of rows) {
      lines.push(`| ${label} | ${s.runsRps.map(fmt.rps).join(', ')} | ${fmt.rps(s.rps)} | ${fmt.ms(s.p50)} | ${fmt.ms(s.p99)} | ${fmt.us(s.cpuPerRequest)} | ${fmt.percent(s.systemShare)} | ${s.faultsPerRequest === undefined ? '–' : s.faultsPerRequest.toFixed(2)} | ${fmt.percent(s.helperShare)} | ${s.warmup?.seconds ?? '–'} |`);
    }
    const floor = e.ratioFloor === undefined ? '' : `, service ÷ floor ${fmt.ratio(e.ratioFloor)}`;
    lines.push('', `service ÷ Koa ${fmt.ratio(e.ratioKoa)}, service ÷ bare ${fmt.ratio(e.ratioBare)}${floor}, p99 factor ${fmt.ratio(e.p99Factor)} → **${e.pass ? 'PASS' : 'FAIL'}**`);
    for (const problem of e.problems) lines.push(`- invalid: ${problem}`);
    lines.push('');
  }
  appendNotMeasured(lines, evaluations);
  return lines.join('\n');
}

const budgetText = (e) => `≥ ${e.budget.minRatio} × ${e.budget.against === 'floor' ? 'floor' : 'Koa'}, p99 ≤ ${e.p99Max} ×`;

export function appendNotMeasured(lines, evaluations) {
  const disturbed = evaluations.filter((e) => e.status === 'disturbed');
  if (disturbed.length) {
    lines.push('## Not measured: the machine disturbed the runs', '', 'No verdict for these rows: re-run them on a quiet machine (`npm run bench -- --only <name>`).', '');
    for (const e of disturbed) lines.push(`- ${e.name}: ${e.disturbed.join('; ')}`);
    lines.push('');
  }
  const skipped = evaluations.filter((e) => e.status === 'skipped');
  const failed = evaluations.filter((e) => e.status === 'error');
  if (skipped.length) {
    lines.push('## Skipped: route not served yet', '');
    for (const e of skipped) lines.push(`- ${e.name}: ${e.reason}`);
    lines.push('');
  }
  if (failed.length) {
    lines.push('## Could not be measured', '');
    for (const e of failed) lines.push(`- ${e.name}: ${e.reason}`);
    lines.push('');
  }
}

export { fmt };
