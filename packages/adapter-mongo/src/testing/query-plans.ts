/**
 * The real-server half of the index check (issue 18 item 2, decision 0751): the commands an
 * operation sent, explained by the server; any collection scan in a winning plan is reported.
 * And `notablescan`, which makes the server refuse an unindexed query outright, switched on for a
 * suite where the server lets us (not on managed services that forbid `setParameter`).
 */
import type { Db, Document } from 'mongodb';

/** Commands `explain` accepts; inserts and index builds plan nothing. */
const EXPLAINABLE = new Set(['find', 'aggregate', 'update', 'delete', 'findAndModify', 'count', 'distinct']);
/** Fields the driver adds to a command that `explain` must not see. */
const SESSION_FIELDS = ['lsid', '$clusterTime', '$db', 'txnNumber', '$readPreference', 'readConcern', 'writeConcern', 'apiVersion', 'apiStrict', 'apiDeprecationErrors', 'cursor'];

/** True when an `explain` answer's chosen plan (rejected plans aside) has a collection scan, in any server's format. */
export function hasCollectionScan(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasCollectionScan);
  if (typeof node !== 'object' || node === null) return false;
  return Object.entries(node).some(([key, value]) => key !== 'rejectedPlans' && ((key === 'stage' && value === 'COLLSCAN') || hasCollectionScan(value)));
}

/** `<command> <collection>` of each sent command whose winning plan scans its collection. */
export async function collectionScans(db: Db, commands: readonly Document[]): Promise<string[]> {
  const scans: string[] = [];
  for (const sent of commands) {
    const name = Object.keys(sent)[0]!;
    if (!EXPLAINABLE.has(name)) continue;
    const command: Document = { ...sent };
    for (const field of SESSION_FIELDS) delete command[field];
    if (name === 'aggregate') command.cursor = {};
    const plan = await db.command({ explain: command, verbosity: 'queryPlanner' });
    if (hasCollectionScan(plan)) scans.push(`${name} ${String(sent[name])}`);
  }
  return scans;
}

/** Sets `notablescan` on the server; returns how to restore it, or null when the server refuses. */
export async function refuseTableScans(db: Db): Promise<(() => Promise<void>) | null> {
  const admin = db.admin();
  try {
    const before = await admin.command({ getParameter: 1, notablescan: 1 });
    await admin.command({ setParameter: 1, notablescan: true });
    return async () => void (await admin.command({ setParameter: 1, notablescan: Boolean(before.notablescan) }));
  } catch {
    return null;
  }
}
