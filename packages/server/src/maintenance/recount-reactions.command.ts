/**
 * The reaction recount as a command: `node scripts/recount-reactions.mjs [--repair]
 * [--tenant <id>]`. It runs the core RecountReactions use case on the MongoDB named by
 * MONGODB_URI (connected through MongoStorage, indexes ensured, as cms-admin does) and prints
 * what it found. It reads only MONGODB_URI and MONGODB_DB, so an unrelated bad setting of the
 * service does not block maintenance. Exit codes: 0 no drift (or every drift repaired), 1 drift
 * found and not repaired, 2 it could not do its job (usage, configuration, store unreachable or
 * failing during the run).
 */
import { MongoStorage } from '@cms/adapter-mongo';
import {
  RecountReactions,
  type ReactionRepository,
  type ReactionTotalsStore,
  type RecountReport,
  type TenantRepository,
} from '@cms/core';
import { ConfigError, type Env } from '../config/env-reader.js';
import { loadStorageConfig } from '../config/service-config.js';

export interface RecountCommandOptions {
  readonly repair: boolean;
  readonly tenantId?: string;
}

export type Output = (line: string) => void;

/** Where the command writes: its report to `stdout`, why it could not run to `stderr` (as cms-admin). */
export interface RecountIo {
  readonly stdout: Output;
  readonly stderr: Output;
}

/** The stores the recount reads and repairs, and how to let go of them. */
export interface RecountStorage {
  readonly tenants: TenantRepository;
  readonly reactions: ReactionRepository;
  readonly articles: ReactionTotalsStore;
  readonly comments: ReactionTotalsStore;
  close(): Promise<void>;
}

/** Opens the store named by the settings; tests hand in one over the collection double. */
export type OpenRecountStorage = (target: { readonly uri: string; readonly database: string }) => Promise<RecountStorage>;

export const RECOUNT_USAGE = 'usage: recount-reactions [--repair] [--tenant <tenantId>]';

export const RecountExit = { ok: 0, drift: 1, failed: 2 } as const;

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

/** Connects to MongoDB and ensures the indexes (the recount pages through `tenant_id`), as cms-admin does. */
export async function openMongoRecountStorage({ uri, database }: { readonly uri: string; readonly database: string }): Promise<RecountStorage> {
  const storage = await MongoStorage.connect(uri, database, { appName: 'cms-recount-reactions' });
  try {
    await storage.ensureIndexes();
  } catch (error) {
    await storage.close();
    throw error;
  }
  const { tenants, reactions, articles, comments } = storage.repositories;
  return { tenants, reactions, articles, comments, close: () => storage.close() };
}

/** Runs the recount and prints the report; returns the exit code. */
export async function recountReactionsWith(recount: RecountReactions, options: RecountCommandOptions, out: Output): Promise<number> {
  const report = await recount.execute(options);
  for (const line of describeReport(report, options.repair)) out(line);
  return report.drifts.length > 0 && report.repaired < report.drifts.length ? RecountExit.drift : RecountExit.ok;
}

/** The script's entry: storage settings from the environment, the store, then the recount. Never throws. */
export async function runRecountReactions(
  env: Env,
  argv: readonly string[],
  io: RecountIo,
  openStorage: OpenRecountStorage = openMongoRecountStorage,
): Promise<number> {
  const options = parseRecountArguments(argv);
  if (options === RECOUNT_USAGE) {
    io.stdout(options);
    return RecountExit.ok;
  }
  if (typeof options === 'string') {
    io.stderr(options);
    return RecountExit.failed;
  }
  let storage: RecountStorage;
  try {
    const config = loadStorageConfig(env);
    if (config.kind === 'memory') {
      io.stderr('recount-reactions needs MONGODB_URI: the embedded store of a new process is empty, so there is nothing to recount.');
      return RecountExit.failed;
    }
    storage = await openStorage({ uri: config.uri, database: config.database });
  } catch (error) {
    io.stderr(error instanceof ConfigError ? `Configuration error: ${error.message}` : `Cannot open the store: ${(error as Error).message}`);
    return RecountExit.failed;
  }
  try {
    if (options.tenantId !== undefined && !(await storage.tenants.findById(options.tenantId))) {
      io.stderr(`Tenant ${options.tenantId} does not exist`);
      return RecountExit.failed;
    }
    const recount = new RecountReactions(storage.tenants, storage.reactions, storage.articles, storage.comments);
    return await recountReactionsWith(recount, options, io.stdout);
  } catch (error) {
    // Repairs already made stay made (each is one atomic increment); a second run reports the rest.
    io.stderr(`recount-reactions failed: ${(error as Error).message}`);
    return RecountExit.failed;
  } finally {
    await storage.close().catch(() => {});
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
