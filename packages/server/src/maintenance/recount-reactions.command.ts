/**
 * The reaction recount as a command: `node scripts/recount-reactions.mjs [--repair]
 * [--tenant <id>]`. It runs the core RecountReactions use case on the configured store and
 * prints what it found. Exit codes: 0 no drift (or every drift repaired), 1 drift found and not
 * repaired, 2 usage or configuration problem.
 */
import { RecountReactions, systemClock, type Logger, type RecountReport } from '@cms/core';
import type { Container } from 'inversify';
import { ConfigError } from '../config/env-reader.js';
import { loadConfig } from '../config/service-config.js';
import { buildContainer } from '../container/build-container.js';
import { ServerTokens, type StorageLifecycle } from '../container/server-tokens.js';

export interface RecountCommandOptions {
  readonly repair: boolean;
  readonly tenantId?: string;
}

export type Output = (line: string) => void;

export const RECOUNT_USAGE = 'usage: recount-reactions [--repair] [--tenant <tenantId>]';

/** Parses the command line; a string is a usage problem to print. */
export function parseRecountArguments(argv: readonly string[]): RecountCommandOptions | string {
  let repair = false;
  let tenantId: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--repair') repair = true;
    else if (arg === '--tenant' && argv[i + 1] && !argv[i + 1]!.startsWith('--')) tenantId = argv[++i];
    else return arg === '--help' || arg === '-h' ? RECOUNT_USAGE : `unknown argument "${arg}"\n${RECOUNT_USAGE}`;
  }
  return tenantId === undefined ? { repair } : { repair, tenantId };
}

/** Runs the recount on a built container's store and prints the report; returns the exit code. */
export async function recountReactionsWith(container: Container, options: RecountCommandOptions, out: Output): Promise<number> {
  const report = await container.get(RecountReactions).execute(options);
  for (const line of describeReport(report, options.repair)) out(line);
  return report.drifts.length > 0 && report.repaired < report.drifts.length ? 1 : 0;
}

/** The script's entry: configuration from the environment, the configured store, then the recount. */
export async function runRecountReactions(env: Readonly<Record<string, string | undefined>>, argv: readonly string[], out: Output): Promise<number> {
  const options = parseRecountArguments(argv);
  if (typeof options === 'string') {
    out(options);
    return options === RECOUNT_USAGE ? 0 : 2;
  }
  let container: Container;
  try {
    const config = loadConfig(env);
    if (config.storage.kind === 'memory') {
      out('recount-reactions needs MONGODB_URI: the embedded store of a new process is empty, so there is nothing to recount.');
      return 2;
    }
    container = await buildContainer({ config, clock: systemClock, logger: quietLogger(out), requestLogger: undefined });
  } catch (error) {
    out(error instanceof ConfigError ? `Configuration error: ${error.message}` : `Cannot open the store: ${String(error)}`);
    return 2;
  }
  try {
    return await recountReactionsWith(container, options, out);
  } finally {
    await container.get<StorageLifecycle>(ServerTokens.Storage).close();
  }
}

function describeReport(report: RecountReport, repair: boolean): string[] {
  const lines = [
    `checked ${report.checked.article} articles and ${report.checked.comment} comments in ${report.tenants} tenants: ` +
      (report.drifts.length === 0 ? 'no drift' : `${report.drifts.length} with drift`),
  ];
  for (const drift of report.drifts) {
    lines.push(
      `  ${drift.tenantId} ${drift.targetKind} ${drift.targetId}: stored ${drift.stored.likes} likes / ${drift.stored.dislikes} dislikes, ` +
        `counted ${drift.counted.likes} / ${drift.counted.dislikes}`,
    );
  }
  if (report.drifts.length > 0) lines.push(repair ? `repaired ${report.repaired} of ${report.drifts.length}` : 'run again with --repair to fix');
  return lines;
}

function quietLogger(out: Output): Logger {
  return { info() {}, warn: (message) => out(`warning: ${message}`), error: (message) => out(`error: ${message}`) };
}
