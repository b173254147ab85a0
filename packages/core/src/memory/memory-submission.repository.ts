/**
 * In-memory submissions. `connectRelation` replaces the record with one whose relation key
 * changed, without awaiting between reading and writing it — on the single JS thread as atomic as Mongo's
 * `$set` / `$addToSet` on one document — so concurrent connects lose nothing. Whether the related
 * submission still exists is read in that same step (one Map lookup, no extra await).
 */
import type {
  ConnectRelationCommand,
  ConnectRelationResult,
  DisconnectRelationCommand,
  DisconnectRelationResult,
  RelationHolder,
  SubmissionRepository,
  WithdrawRelationCommand,
} from '../forms/forms.ports.js';
import { idsOf, relationValue } from '../forms/relation-holders.js';
import type { Submission } from '../forms/submission.js';
import type { PageQuery } from '../shared/page-cursor.js';
import { collectPage, KeysetIndex } from './keyset-index.js';
import { addTo, removeFrom } from './id-sets.js';
import { frozenDate, rowOf, setOwnMember, SnapshotTable, stillAt, type RowSlot } from './snapshot-table.js';
import { tenantKey } from './tenant-key.js';

export class MemorySubmissionRepository implements SubmissionRepository {
  readonly #submissions = new SnapshotTable<Submission>();
  /** (tenant, form) → its submissions in list order. */
  readonly #byForm = new KeysetIndex<RowSlot<Submission>>();
  /** Keys of the submissions that carry `notificationsRecoverAt` (few: a submit takes it off once its jobs are stored). */
  readonly #unnotified = new Set<string>();
  /**
   * (tenant, related id) → ids of the submissions whose relations hold it, in any field: what an
   * erasure reads to take an id out (decision 0838), instead of every submission of a holder form.
   * Kept by every write that changes relations.
   */
  readonly #holders = new Map<string, Set<string>>();

  async insert(submission: Submission): Promise<void> {
    const key = tenantKey(submission.tenantId, submission.id);
    const slot = this.#submissions.insertSlot(key, submission);
    if (!slot) throw new Error(`duplicate submission id ${submission.id}`);
    this.#byForm.add(tenantKey(submission.tenantId, submission.formId), submission, slot);
    if (submission.notificationsRecoverAt !== undefined) this.#unnotified.add(key);
    this.#holdAll(submission, true);
  }

  async delete(tenantId: string, id: string, expected?: Date): Promise<boolean> {
    const key = tenantKey(tenantId, id);
    const submission = this.#submissions.deleteIf(key, (current) => stillAt(current, expected));
    if (!submission) return false;
    this.#byForm.remove(tenantKey(tenantId, submission.formId), submission);
    this.#unnotified.delete(key);
    this.#holdAll(submission, false);
    return true;
  }

  async claimVersion(tenantId: string, id: string, expected: Date, claimed: Date): Promise<boolean> {
    const key = tenantKey(tenantId, id);
    const current = this.#submissions.get(key);
    if (!current || !stillAt(current, expected)) return false;
    this.#submissions.update(key, (submission) => ({ ...submission, updatedAt: frozenDate(claimed) }));
    return true;
  }

  async deleteByForm(tenantId: string, formId: string): Promise<number> {
    const slots = this.#byForm.take(tenantKey(tenantId, formId));
    for (const { key, row } of slots) {
      this.#submissions.delete(key);
      this.#unnotified.delete(key);
      if (row) this.#holdAll(row, false);
    }
    return slots.length;
  }

  async deleteByIds(tenantId: string, ids: readonly string[]): Promise<number> {
    let deleted = 0;
    for (const id of ids) if (await this.delete(tenantId, id)) deleted += 1;
    return deleted;
  }

  async removeRelationsTo(tenantId: string, holder: RelationHolder, relatedIds: readonly string[]): Promise<number> {
    const gone = new Set(relatedIds);
    const holderIds = new Set<string>();
    for (const id of gone) for (const holderId of this.#holders.get(tenantKey(tenantId, id)) ?? []) holderIds.add(holderId);
    let changed = 0;
    for (const holderId of holderIds) {
      const key = tenantKey(tenantId, holderId);
      const submission = this.#submissions.get(key);
      if (!submission || submission.formId !== holder.formId) continue;
      const next = withoutRelated(submission, holder.fieldName, (id) => gone.has(id));
      if (next === submission) continue;
      this.#refield(submission, this.#submissions.update(key, () => next)!, holder.fieldName);
      changed += 1;
    }
    return changed;
  }

  async disconnectRelation(command: DisconnectRelationCommand): Promise<DisconnectRelationResult | null> {
    const key = tenantKey(command.tenantId, command.submissionId);
    const current = this.#submissions.get(key);
    if (!current) return null;
    const next = withoutRelated(current, command.fieldName, (id) => id === command.relatedId, command.now);
    if (next === current) return { submission: current, changed: false };
    const stored = this.#submissions.update(key, () => next)!;
    this.#refield(current, stored, command.fieldName);
    return { submission: stored, changed: true };
  }

  async listByForm(tenantId: string, formId: string, page: PageQuery): Promise<Submission[]> {
    return collectPage(this.#byForm.itemsFor(tenantKey(tenantId, formId), page), rowOf, page);
  }

  async claimUnnotified(now: Date, leaseMs: number, limit: number): Promise<Submission[]> {
    const due: Submission[] = [];
    for (const key of this.#unnotified) {
      const submission = this.#submissions.get(key);
      if (submission?.notificationsRecoverAt !== undefined && submission.notificationsRecoverAt <= now) due.push(submission);
    }
    due.sort((a, b) => a.notificationsRecoverAt!.getTime() - b.notificationsRecoverAt!.getTime());
    const until = new Date(now.getTime() + leaseMs);
    return due.slice(0, Math.max(0, limit)).map((submission) => {
      const key = tenantKey(submission.tenantId, submission.id);
      return this.#submissions.update(key, (current) => ({ ...current, notificationsRecoverAt: until }))!;
    });
  }

  async confirmNotified(tenantId: string, id: string): Promise<boolean> {
    const key = tenantKey(tenantId, id);
    if (!this.#unnotified.delete(key)) return this.#submissions.has(key);
    return this.#submissions.update(key, ({ notificationsRecoverAt: _, ...confirmed }) => confirmed) !== undefined;
  }

  async findById(tenantId: string, id: string): Promise<Submission | null> {
    return this.#submissions.get(tenantKey(tenantId, id)) ?? null;
  }

  async findByIds(tenantId: string, ids: readonly string[]): Promise<Submission[]> {
    // A plain loop: connect asks for two ids on every call, and the Set, map and filter of the
    // first version showed in its profile.
    const found: Submission[] = [];
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (ids.indexOf(id) !== i) continue; // each id once
      const submission = this.#submissions.get(tenantKey(tenantId, id));
      if (submission !== undefined) found.push(submission);
    }
    return found;
  }

  async connectRelation(command: ConnectRelationCommand): Promise<ConnectRelationResult> {
    const key = tenantKey(command.tenantId, command.submissionId);
    const submission = this.#submissions.get(key);
    if (!submission) return { status: 'missing' };
    const { fieldName, relatedId } = command;
    const relatedKey = tenantKey(command.tenantId, relatedId);
    const relatedExists = this.#submissions.has(relatedKey);
    const current = relationValue(submission, fieldName);
    let value: string | string[] = relatedId;
    if (!command.multiple && current === relatedId) return { status: 'unchanged', submission, relatedExists };
    if (command.multiple) {
      // A single id stored before the form made the field multi-value counts as a list of it.
      const list = idsOf(current);
      if (list.includes(relatedId)) return { status: 'unchanged', submission, relatedExists };
      if (list.length >= command.cap) return { status: 'full' };
      value = [...list, relatedId];
      Object.freeze(value);
    }
    // Built frozen (ids are strings), so the table stores it without copying the relations again.
    const next = this.#submissions.updateFrozen(key, (stored) =>
      Object.freeze({
        ...stored,
        relations: Object.freeze({ ...stored.relations, [fieldName]: value }),
        updatedAt: frozenDate(command.now),
      }),
    )!;
    addTo(this.#holders, relatedKey, command.submissionId);
    if (command.multiple || current === undefined) return { status: 'connected', submission: next, relatedExists };
    if (typeof current === 'string') this.#release(next, current);
    else for (const replaced of current) this.#release(next, replaced);
    return { status: 'connected', submission: next, relatedExists, replaced: current };
  }

  async withdrawRelation(command: WithdrawRelationCommand): Promise<void> {
    const { fieldName, relatedId, restore } = command;
    const key = tenantKey(command.tenantId, command.submissionId);
    const before = this.#submissions.get(key);
    const after = this.#submissions.update(key, (current) => {
      const value = relationValue(current, fieldName);
      if (restore === null || (value !== undefined && value !== relatedId)) return withoutRelated(current, fieldName, (id) => id === relatedId);
      const relations: Record<string, string | string[]> = { ...current.relations };
      setOwnMember(relations, fieldName, typeof restore === 'string' ? restore : [...restore]);
      return { ...current, relations };
    });
    if (before && after) this.#refield(before, after, fieldName);
  }

  /** Test inspection: the (holder, related id) pairs filed for erasures, over every tenant. */
  holdingCount(): number {
    let count = 0;
    for (const holders of this.#holders.values()) count += holders.size;
    return count;
  }

  /** Files (or unfiles) `submission` as a holder of every id its relations hold: on insert and delete. */
  #holdAll(submission: Submission, held: boolean): void {
    const { relations, tenantId, id: holderId } = submission;
    for (const fieldName in relations) {
      if (!Object.hasOwn(relations, fieldName)) continue;
      for (const id of idsOf(relations[fieldName])) {
        if (held) addTo(this.#holders, tenantKey(tenantId, id), holderId);
        else removeFrom(this.#holders, tenantKey(tenantId, id), holderId);
      }
    }
  }

  /** Refiles a holder whose relation `fieldName` (and no other) changed from `before` to `after`. */
  #refield(before: Submission, after: Submission, fieldName: string): void {
    const was = idsOf(relationValue(before, fieldName));
    const now = new Set(idsOf(relationValue(after, fieldName)));
    for (const id of was) if (!now.has(id)) this.#release(after, id);
    const had = new Set(was);
    for (const id of now) if (!had.has(id)) addTo(this.#holders, tenantKey(after.tenantId, id), after.id);
  }

  /** Unfiles `holder` for `id` unless another of its relation fields still holds it. */
  #release(holder: Submission, id: string): void {
    const { relations } = holder;
    for (const fieldName in relations) {
      if (!Object.hasOwn(relations, fieldName)) continue;
      const value = relations[fieldName]!;
      if (value === id || (typeof value !== 'string' && value.includes(id))) return;
    }
    removeFrom(this.#holders, tenantKey(holder.tenantId, id), holder.id);
  }
}

/**
 * The successor of `submission` with the ids `gone` says out of `relations[fieldName]` (a list
 * keeps the rest, a single value goes with its key), `updatedAt` set to `now` when given; itself
 * when nothing changed. The table freezes what is new in it.
 */
function withoutRelated(submission: Submission, fieldName: string, gone: (id: string) => boolean, now?: Date): Submission {
  if (!Object.hasOwn(submission.relations, fieldName)) return submission;
  const current = submission.relations[fieldName]!;
  const relations: Record<string, string | string[]> = { ...submission.relations };
  if (Array.isArray(current)) {
    const kept = current.filter((id) => !gone(id));
    if (kept.length === current.length) return submission;
    setOwnMember(relations, fieldName, kept);
  } else {
    if (!gone(current)) return submission;
    delete relations[fieldName];
  }
  return { ...submission, relations, ...(now ? { updatedAt: now } : {}) };
}
