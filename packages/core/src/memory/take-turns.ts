/**
 * Claims that take turns between receivers (webhooks, notification channels) in the embedded
 * outboxes (decision 0817): one due job of each receiver in key order, starting after the receiver
 * the last claim took from and wrapping round, each receiver at most the room its share leaves,
 * and, with `tenantOf`, the receivers of one tenant together at most the room the tenant's share
 * leaves (decision 0823).
 */
import type { ClaimShare } from '../notifications/dispatch-shares.js';

interface TurnQueue<T> {
  readonly receiver: string;
  /** The receiver's tenant, when the share counts tenants: every job of a receiver is of one tenant. */
  readonly tenant: string | undefined;
  readonly due: readonly T[];
  /** The next of `due` to take. */
  next: number;
  room: number;
}

/**
 * Takes up to `limit` of the due jobs, grouped by receiver, in turns; each receiver's oldest due
 * first (`sort` is stable: jobs due together keep their order). Returns them in the order taken,
 * with the receiver of the last one (the next call's `after`). `tenantOf` names a job's tenant
 * when the share has one per tenant.
 */
export function takeTurns<T extends { readonly nextAttemptAt: Date }>(
  dueByReceiver: ReadonlyMap<string, T[]>,
  limit: number,
  after: string | null,
  share: ClaimShare | undefined,
  tenantOf?: (job: T) => string,
): { taken: T[]; last: string | null } {
  const perTenant = share?.perTenant;
  const tenantRoom = new Map<string, number>();
  const roomOf = (tenant: string | undefined): number => {
    if (tenant === undefined || perTenant === undefined) return Infinity;
    return tenantRoom.get(tenant) ?? perTenant - (share?.inFlightByTenant?.get(tenant) ?? 0);
  };
  const queues: TurnQueue<T>[] = [];
  for (const [receiver, due] of dueByReceiver) {
    const room = share ? share.perReceiver - (share.inFlight.get(receiver) ?? 0) : Infinity;
    const tenant = tenantOf && due.length > 0 ? tenantOf(due[0]!) : undefined;
    if (room > 0 && due.length > 0 && roomOf(tenant) > 0) queues.push({ receiver, tenant, due: [...due].sort(byDueTime), next: 0, room });
  }
  queues.sort((a, b) => (a.receiver < b.receiver ? -1 : 1));
  const start = queues.findIndex((queue) => after === null || queue.receiver > after);
  if (start > 0) queues.push(...queues.splice(0, start));
  const taken: T[] = [];
  let last = after;
  while (taken.length < limit && queues.length > 0) {
    for (let i = 0; i < queues.length && taken.length < limit; ) {
      const queue = queues[i]!;
      if (roomOf(queue.tenant) <= 0) {
        queues.splice(i, 1); // its tenant's share was taken by its other receivers this round
        continue;
      }
      taken.push(queue.due[queue.next]!);
      queue.next += 1;
      last = queue.receiver;
      queue.room -= 1;
      if (queue.tenant !== undefined && perTenant !== undefined) tenantRoom.set(queue.tenant, roomOf(queue.tenant) - 1);
      if (queue.next === queue.due.length || queue.room <= 0) queues.splice(i, 1);
      else i += 1;
    }
  }
  return { taken, last };
}

function byDueTime(a: { readonly nextAttemptAt: Date }, b: { readonly nextAttemptAt: Date }): number {
  return a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime();
}

/** Whether a job has no claim, or one that has lapsed by `now`. */
export function isUnclaimed(job: { readonly claimedUntil: Date | null }, now: Date): boolean {
  return job.claimedUntil === null || job.claimedUntil <= now;
}

/** Adds `item` to its receiver's list. */
export function groupInto<T>(groups: Map<string, T[]>, receiver: string, item: T): void {
  const group = groups.get(receiver);
  if (group) group.push(item);
  else groups.set(receiver, [item]);
}
