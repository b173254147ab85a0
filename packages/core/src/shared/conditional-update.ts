/**
 * The update step every `PATCH /<kind>/update/{id}` shares (§6.3), in the contract's order:
 * not found (404) → `If-Match` (412) → body (400) → a write conditioned on the `updatedAt` that
 * was read, so the check and the write are one step in the store. A write that finds the record
 * changed since it was read is a 412 when the caller named a tag; without `If-Match` (or with
 * `*`) the update is worked out again on the record as it now is: last write wins, no field lost.
 * An empty body changes nothing and writes nothing (docs/decisions/0762-updates.md).
 */
import { DomainError, validationError } from './domain-error.js';
import { checkIfMatch, namesVersion, preconditionFailed } from './entity-tag.js';
import { isJsonObject, requireObject } from './shape-rules.js';

/**
 * A change of one record (§6.3): its id as the caller gave it, the `changes` as sent (a strict
 * partial create input: validation paths name its properties, `title`, `sections[0]…`), and the
 * request's conditions.
 */
export interface UpdateInput extends UpdateRequest {
  readonly id: string;
  readonly changes: unknown;
}

export interface UpdateRequest {
  /** The request's `If-Match` value, if any. */
  readonly ifMatch?: string | undefined;
  /** The inbound adapter's shape check of the body (its JSON Schema), run at the body step. */
  readonly checkShape?: ((body: unknown) => void) | undefined;
}

export interface UpdateSteps<R extends { readonly updatedAt: Date }> {
  /** The record's identity across kinds and tenants (`article\0<tenant>\0<id>`): its updates in this process take turns. */
  readonly key: string;
  read(): Promise<R | null>;
  notFound(): DomainError;
  /** What callers receive of the record: its tag is the tag of this view. */
  view(record: R): object;
  /** The record after the change, every rule of create checked (throws validation errors). */
  build(current: R): Promise<R>;
  /** Stores `next` only if the stored record's `updatedAt` is still `expected`; false otherwise. `current`: the record `next` replaces. */
  write(next: R, expected: Date, current: R): Promise<boolean>;
}

/**
 * Rounds an update without a named tag tries before giving up. Only writers of other processes
 * can make it lose (each process's writers of a record take turns), one writer each at a time, and
 * each round one of them lands; with pauses growing to 128 ms, losing every round takes a
 * contention no deployment has (decision 0762 has what too few rounds cost).
 */
const ATTEMPTS = 32;

export function conditionalUpdate<R extends { readonly updatedAt: Date }>(body: unknown, request: UpdateRequest, steps: UpdateSteps<R>): Promise<R> {
  return inTurn(steps.key, () => updateRounds(body, request, steps));
}

async function updateRounds<R extends { readonly updatedAt: Date }>(body: unknown, request: UpdateRequest, steps: UpdateSteps<R>): Promise<R> {
  const named = namesVersion(request.ifMatch);
  // Only a plain object can be `{}`: a Map or a Date handed in by embedding code is a bad body (400), not a no-op.
  const empty = body === undefined || body === null || (isJsonObject(body) && Object.keys(body).length === 0);
  for (let attempt = 1; ; attempt += 1) {
    if (attempt > 1) await pause(attempt);
    const current = await steps.read();
    if (!current) throw steps.notFound();
    checkIfMatch(request.ifMatch, () => steps.view(current));
    if (attempt === 1) request.checkShape?.(body);
    if (empty) return current; // `{}` is a valid no-op: nothing is written, the tag stays
    const next = await steps.build(current);
    if (await steps.write(next, current.updatedAt, current)) return next;
    if (named) throw preconditionFailed();
    if (attempt >= ATTEMPTS) throw new Error(`update kept losing races after ${ATTEMPTS} attempts`);
  }
}

/** The update running or queued last for each record key in this process. */
const turns = new Map<string, Promise<unknown>>();

/**
 * Runs `task` once every earlier task of `key` in this process has settled. Writers of one record
 * each read, build (awaiting reference checks) and write on the `updatedAt` they read; started
 * together, they invalidated each other's rounds, and with ten at once one could lose five
 * rounds in a row and answer 500. Taking turns, a writer here loses a round only to another
 * process over the same store, which the retry rounds absorb (docs/decisions/0762-updates.md).
 */
async function inTurn<T>(key: string, task: () => Promise<T>): Promise<T> {
  const before = turns.get(key);
  const run = before ? before.then(task, task) : task();
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  turns.set(key, settled);
  try {
    return await run;
  } finally {
    if (turns.get(key) === settled) turns.delete(key);
  }
}

/** A short random wait before round `attempt`, growing with it, so writers of several processes stop colliding. */
function pause(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * 2 ** Math.min(attempt, 7)));
}

/**
 * A strict partial body: an object whose keys are all among `allowed` (read-only and unknown
 * properties are 400). Absent keys stay unchanged; `null` means "back to the default".
 */
export function patchOf(body: unknown, allowed: readonly string[]): Readonly<Record<string, unknown>> {
  if (body === undefined || body === null) return {};
  requireObject(body, '');
  for (const key of Object.keys(body)) if (!allowed.includes(key)) throw validationError(key, 'is not allowed');
  return body as Record<string, unknown>;
}

/** The stored values as a create body, with the patch's present keys over them. */
export function patched<T extends object>(current: T, patch: Readonly<Record<string, unknown>>): T {
  const merged: Record<string, unknown> = { ...(current as Record<string, unknown>) };
  for (const key of Object.keys(patch)) if (patch[key] !== undefined) merged[key] = patch[key];
  return merged as T;
}
