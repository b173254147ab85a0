/**
 * Form submissions on MongoDB. A submission is inserted once (`insertOne`); every later write is
 * one atomic step on one relation key (connect, disconnect, withdraw, an erasure's cascade), on
 * `updatedAt` (`claimVersion`) or on the notification marker (`claimUnnotified`,
 * `confirmNotified`). `connectRelation` is ONE `findOneAndUpdate` on the relation key:
 * - single-value: `$set` of `relations.<field>`;
 * - multi-value: `$addToSet` onto `relations.<field>`, filtered on "the id is not in the list"
 *   (`$ne`) and "the list holds fewer than `cap` ids" (`relations.<field>.<cap-1>` does not
 *   exist), so the cap and the append are one step and racing connects lose nothing.
 * When the multi-value filter matches nothing, one read tells why (no such submission, id
 * already there, list full). It leads to a write in one case: the key holds a single id,
 * connected before the form made the field multi-value (`$addToSet` fails on it); a `$set`
 * conditional on that id makes it the list's first (decision 0204).
 * After the write, one read by `_id` says whether the related submission still exists: an
 * erasure may have run between the caller's check and the write (decision 0766); the caller
 * then takes the id back with `withdrawRelation`.
 * The submission's form and related submissions are stored as ObjectIds
 * (docs/decisions/0105-mongo-forms-and-submissions.md).
 */
import {
  FORM_LIMITS,
  type ConnectRelationCommand,
  type ConnectRelationResult,
  type DisconnectRelationCommand,
  type DisconnectRelationResult,
  type RelationHolder,
  type PageQuery,
  type Submission,
  type SubmissionRelations,
  type SubmissionRepository,
  type WithdrawRelationCommand,
} from '@cms/core';
import type { Filter, ObjectId, UpdateFilter } from 'mongodb';
import { relationValue } from '@cms/core/internal';
import { isDuplicateKeyError } from '../storage/duplicate-key.js';
import { deleteById } from '../storage/conditional-delete.js';
import { findPage } from '../storage/keyset-query.js';
import { Collections } from '../storage/mongo-collections.js';
import type { MongoCollection, MongoDatabase } from '../storage/mongo-database.js';
import { fromObjectId, parseObjectId, parseObjectIds, toObjectId } from '../storage/object-ids.js';

interface SubmissionDocument {
  _id: ObjectId;
  tenantId: string;
  formId: ObjectId;
  values: Record<string, unknown>;
  /** Field name → the related submission (single-value) or the related submissions in connect order. */
  relations: Record<string, ObjectId | ObjectId[]>;
  submittedBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Only while the submission's notification jobs are not known to be stored (decision 0798). */
  notificationsRecoverAt?: Date;
}

/**
 * How often a multi-value connect tries again when the relation changed between its write and
 * the read that says why nothing was written (a disconnect, or another connect turning a single
 * id into a list). Each retry needs another write to the same key in that gap.
 */
const CONNECT_ATTEMPTS = 5;

/** Field names are user-chosen; only a plain name may become a segment of an update path. */
const FIELD_NAME = new RegExp(FORM_LIMITS.fieldNamePattern);

export class MongoSubmissionRepository implements SubmissionRepository {
  readonly #submissions: MongoCollection<SubmissionDocument>;

  constructor(db: MongoDatabase) {
    this.#submissions = db.collection<SubmissionDocument>(Collections.formSubmissions);
  }

  async insert(submission: Submission): Promise<void> {
    try {
      await this.#submissions.insertOne(toDocument(submission));
    } catch (error) {
      // Same failure as the memory adapter, without the driver's error type.
      if (isDuplicateKeyError(error)) throw new Error(`duplicate submission id ${submission.id}`);
      throw error;
    }
  }

  async findById(tenantId: string, id: string): Promise<Submission | null> {
    const _id = parseObjectId(id);
    if (!_id) return null;
    const document = await this.#submissions.findOne({ _id, tenantId });
    return document ? toSubmission(document) : null;
  }

  /** One `find` by `_id` with `$in` (the `_id_` index), for a submission and the one it connects to. */
  async findByIds(tenantId: string, ids: readonly string[]): Promise<Submission[]> {
    const wanted = parseObjectIds(ids);
    if (wanted.length === 0) return [];
    const documents = await this.#submissions.find({ tenantId, _id: { $in: wanted } }).toArray();
    return documents.map(toSubmission);
  }

  async connectRelation(command: ConnectRelationCommand): Promise<ConnectRelationResult> {
    const path = relationPath(command.fieldName);
    const _id = parseObjectId(command.submissionId);
    if (!_id) return { status: 'missing' };
    const key = { _id, tenantId: command.tenantId };
    const relatedId = toObjectId(command.relatedId);

    if (!command.multiple) {
      // Unless the key is that id already (a single value: a list has `.0`), in one step; the
      // document before the write tells which id was replaced, and the answer is built from it.
      const unlessHeld = { ...key, $nor: [{ [path]: relatedId, [`${path}.0`]: { $exists: false } }] } as Filter<SubmissionDocument>;
      const update = { $set: { [path]: relatedId, updatedAt: command.now } } as UpdateFilter<SubmissionDocument>;
      for (let attempt = 1; attempt <= CONNECT_ATTEMPTS; attempt++) {
        const before = await this.#submissions.findOneAndUpdate(unlessHeld, update, { returnDocument: 'before' });
        if (before) {
          const previous = heldRelation(before, command.fieldName);
          const after = { ...before, relations: { ...before.relations, [command.fieldName]: relatedId }, updatedAt: command.now };
          const relatedExists = await this.#exists(command.tenantId, relatedId);
          const connected = { status: 'connected', submission: toSubmission(after), relatedExists } as const;
          if (previous === undefined) return connected;
          return { ...connected, replaced: Array.isArray(previous) ? previous.map(fromObjectId) : fromObjectId(previous) };
        }
        // Nothing was written: no such submission, or it holds the id already (a repeat), unless
        // another connect or a disconnect changed the key between the two steps (then again).
        const current = await this.#submissions.findOne(key);
        if (!current) return { status: 'missing' };
        const held = heldRelation(current, command.fieldName);
        if (held !== undefined && !Array.isArray(held) && String(held) === command.relatedId) {
          return { status: 'unchanged', submission: toSubmission(current), relatedExists: await this.#exists(command.tenantId, relatedId) };
        }
      }
      throw new Error(`relations.${command.fieldName} of submission ${command.submissionId} changed under ${CONNECT_ATTEMPTS} connects in a row`);
    }

    const cap = command.cap;
    if (!Number.isInteger(cap) || cap < 1) throw new Error(`relation cap must be a positive integer, got ${cap}`);
    const listOrNone = { $or: [{ [path]: { $exists: false } }, { [path]: { $type: 'array' } }] };
    const appendable = { ...key, ...listOrNone, [path]: { $ne: relatedId }, [`${path}.${cap - 1}`]: { $exists: false } } as Filter<SubmissionDocument>;
    const append = { $addToSet: { [path]: relatedId }, $set: { updatedAt: command.now } } as UpdateFilter<SubmissionDocument>;
    for (let attempt = 1; attempt <= CONNECT_ATTEMPTS; attempt++) {
      const appended = await this.#submissions.findOneAndUpdate(appendable, append, { returnDocument: 'after' });
      if (appended) return { status: 'connected', submission: toSubmission(appended), relatedExists: await this.#exists(command.tenantId, relatedId) };

      // Nothing was written; one read says why. It leads to a write only for a single id.
      const current = await this.#submissions.findOne(key);
      if (!current) return { status: 'missing' };
      const held = heldRelation(current, command.fieldName);
      if (held === undefined) continue; // disconnected since the attempt
      const ids = Array.isArray(held) ? held : [held];
      if (ids.some((id) => String(id) === command.relatedId)) {
        return { status: 'unchanged', submission: toSubmission(current), relatedExists: await this.#exists(command.tenantId, relatedId) };
      }
      if (ids.length >= cap) return { status: 'full' };
      if (Array.isArray(held)) continue; // shorter than when the attempt ran: a disconnect came between
      // A single id stored before the form made the field multi-value: the list starts with it,
      // in one step that holds only while the key is still that single id ($addToSet cannot).
      const single = { ...key, [path]: held, [`${path}.0`]: { $exists: false } } as Filter<SubmissionDocument>;
      const listed = { $set: { [path]: [held, relatedId], updatedAt: command.now } } as UpdateFilter<SubmissionDocument>;
      const started = await this.#submissions.findOneAndUpdate(single, listed, { returnDocument: 'after' });
      if (started) return { status: 'connected', submission: toSubmission(started), relatedExists: await this.#exists(command.tenantId, relatedId) };
    }
    throw new Error(`relations.${command.fieldName} of submission ${command.submissionId} changed under ${CONNECT_ATTEMPTS} connects in a row`);
  }

  /** One `findOneAndDelete`; with `expected`, `updatedAt` is in its filter (compare-and-delete). */
  async delete(tenantId: string, id: string, expected?: Date): Promise<boolean> {
    return deleteById(this.#submissions, tenantId, id, expected);
  }

  /** One `updateOne` by `_id` with `updatedAt` in its filter. */
  async claimVersion(tenantId: string, id: string, expected: Date, claimed: Date): Promise<boolean> {
    const _id = parseObjectId(id);
    if (!_id) return false;
    return (await this.#submissions.updateOne({ _id, tenantId, updatedAt: expected }, { $set: { updatedAt: claimed } })).matchedCount > 0;
  }

  /** Served by `tenant_form_created`. */
  async deleteByForm(tenantId: string, formId: string): Promise<number> {
    const form = parseObjectId(formId);
    if (!form) return 0;
    return (await this.#submissions.deleteMany({ tenantId, formId: form })).deletedCount;
  }

  /** One `deleteMany` by `_id` with `$in` (the `_id_` index). */
  async deleteByIds(tenantId: string, ids: readonly string[]): Promise<number> {
    const wanted = parseObjectIds(ids);
    if (wanted.length === 0) return 0;
    return (await this.#submissions.deleteMany({ tenantId, _id: { $in: wanted } })).deletedCount;
  }

  /**
   * Two `updateMany`s over the holder form's submissions (`tenant_form_created`): `$pull` from
   * lists, then `$unset` of single values (a `$pull` on a single value would fail), each filtered
   * on its shape so that a list is never unset.
   */
  async removeRelationsTo(tenantId: string, holder: RelationHolder, relatedIds: readonly string[]): Promise<number> {
    const form = parseObjectId(holder.formId);
    const ids = parseObjectIds(relatedIds);
    if (!form || ids.length === 0) return 0;
    const path = relationPath(holder.fieldName);
    const lists = await this.#submissions.updateMany(
      { tenantId, formId: form, $and: [{ [path]: { $type: 'array' } }, { [path]: { $in: ids } }] } as Filter<SubmissionDocument>,
      { $pull: { [path]: { $in: ids } } } as UpdateFilter<SubmissionDocument>,
    );
    // `<path>.0` absent: a single value. An equality also matches a list holding the id, which a
    // connect may have made one of a list's since the `$pull`: its `$unset` would take the list whole.
    const singles = await this.#submissions.updateMany(
      { tenantId, formId: form, [path]: { $in: ids }, [`${path}.0`]: { $exists: false } } as Filter<SubmissionDocument>,
      { $unset: { [path]: '' } } as UpdateFilter<SubmissionDocument>,
    );
    return lists.modifiedCount + singles.modifiedCount;
  }

  /**
   * One atomic step on whichever form the relation has: `$pull` when it is a list, else `$unset`
   * when it holds the id; a read answers when neither changed anything.
   */
  async disconnectRelation(command: DisconnectRelationCommand): Promise<DisconnectRelationResult | null> {
    const _id = parseObjectId(command.submissionId);
    const related = parseObjectId(command.relatedId);
    if (!_id || !related) return null;
    const path = relationPath(command.fieldName);
    const base = { _id, tenantId: command.tenantId };
    const pulled = await this.#submissions.findOneAndUpdate(
      { ...base, $and: [{ [path]: { $type: 'array' } }, { [path]: related }] } as Filter<SubmissionDocument>,
      { $pull: { [path]: related }, $set: { updatedAt: command.now } } as UpdateFilter<SubmissionDocument>,
      { returnDocument: 'after' },
    );
    if (pulled) return { submission: toSubmission(pulled), changed: true };
    // A single value only (`<path>.0` absent), as above: a connect between the two steps may have
    // appended the id to a list, which the `$unset` would take whole.
    const unset = await this.#submissions.findOneAndUpdate(
      { ...base, [path]: related, [`${path}.0`]: { $exists: false } } as Filter<SubmissionDocument>,
      { $unset: { [path]: '' }, $set: { updatedAt: command.now } } as UpdateFilter<SubmissionDocument>,
      { returnDocument: 'after' },
    );
    if (unset) return { submission: toSubmission(unset), changed: true };
    const current = await this.#submissions.findOne(base);
    return current ? { submission: toSubmission(current), changed: false } : null;
  }

  /**
   * Two `updateOne`s by `_id`: `$pull` from a list holding the id, else the single value equal to
   * it (`<path>.0` absent: not a list), or with `restore` an absent key, set to `restore` or
   * `$unset`. `updatedAt` is kept.
   */
  async withdrawRelation(command: WithdrawRelationCommand): Promise<void> {
    const _id = parseObjectId(command.submissionId);
    const related = parseObjectId(command.relatedId);
    if (!_id || !related) return;
    const path = relationPath(command.fieldName);
    const base = { _id, tenantId: command.tenantId };
    const pulled = await this.#submissions.updateOne(
      { ...base, $and: [{ [path]: { $type: 'array' } }, { [path]: related }] } as Filter<SubmissionDocument>,
      { $pull: { [path]: related } } as UpdateFilter<SubmissionDocument>,
    );
    if (pulled.modifiedCount > 0) return;
    const single = { [path]: related, [`${path}.0`]: { $exists: false } };
    if (command.restore === null) {
      await this.#submissions.updateOne({ ...base, ...single } as Filter<SubmissionDocument>, { $unset: { [path]: '' } } as UpdateFilter<SubmissionDocument>);
      return;
    }
    await this.#submissions.updateOne(
      { ...base, $or: [single, { [path]: { $exists: false } }] } as Filter<SubmissionDocument>,
      { $set: { [path]: typeof command.restore === 'string' ? toObjectId(command.restore) : command.restore.map(toObjectId) } } as UpdateFilter<SubmissionDocument>,
    );
  }

  /** One `find` by `_id` (the `_id_` index), projected to the id. */
  async #exists(tenantId: string, id: ObjectId): Promise<boolean> {
    return (await this.#submissions.findOne({ _id: id, tenantId }, { projection: { _id: 1 } })) !== null;
  }

  /**
   * One `find` on the sparse `notifications_recover_at` index (it holds only the few submissions
   * that carry the marker), then one `findOneAndUpdate` per candidate by its shard key
   * `{tenantId, _id}` and the time it was read with: of two racing claimers one matches, and on a
   * sharded collection each write goes to one shard (a claim whose filter names no shard key is
   * refused before MongoDB 7.0). A candidate another claimer took meanwhile is left out, so a
   * round can return fewer than were due; the next round finds the rest.
   */
  async claimUnnotified(now: Date, leaseMs: number, limit: number): Promise<Submission[]> {
    const until = new Date(now.getTime() + leaseMs);
    const due = await this.#submissions
      .find({ notificationsRecoverAt: { $lte: now } }, { sort: { notificationsRecoverAt: 1 }, limit, projection: { _id: 1, tenantId: 1, notificationsRecoverAt: 1 } })
      .toArray();
    const claimed: Submission[] = [];
    for (const { _id, tenantId, notificationsRecoverAt } of due) {
      const document = await this.#submissions.findOneAndUpdate(
        { _id, tenantId, notificationsRecoverAt },
        { $set: { notificationsRecoverAt: until } },
        { returnDocument: 'after' },
      );
      if (document) claimed.push(toSubmission(document));
    }
    return claimed;
  }

  /** One `updateOne` by `_id`; whether it matched says whether the submission is there. */
  async confirmNotified(tenantId: string, id: string): Promise<boolean> {
    const _id = parseObjectId(id);
    if (!_id) return false;
    return (await this.#submissions.updateOne({ _id, tenantId }, { $unset: { notificationsRecoverAt: '' } })).matchedCount > 0;
  }

  /** Served by `tenant_form_created` (both directions). */
  async listByForm(tenantId: string, formId: string, page: PageQuery): Promise<Submission[]> {
    const formObjectId = parseObjectId(formId);
    if (!formObjectId) return [];
    return (await findPage(this.#submissions, { tenantId, formId: formObjectId }, page)).map(toSubmission);
  }
}

/** `relationValue` of a document, which may have no `relations` at all (a field may be named `constructor`). */
function heldRelation(document: Pick<SubmissionDocument, 'relations'>, fieldName: string): ObjectId | ObjectId[] | undefined {
  return relationValue({ relations: document.relations ?? {} }, fieldName);
}

function relationPath(fieldName: string): string {
  if (!FIELD_NAME.test(fieldName)) throw new Error(`relation field name is not a plain field name: "${fieldName}"`);
  return `relations.${fieldName}`;
}

function toDocument(submission: Submission): SubmissionDocument {
  return {
    _id: toObjectId(submission.id),
    tenantId: submission.tenantId,
    formId: toObjectId(submission.formId),
    values: { ...submission.values },
    relations: Object.fromEntries(
      Object.entries(submission.relations).map(([field, ids]) => [field, Array.isArray(ids) ? ids.map(toObjectId) : toObjectId(ids)]),
    ),
    submittedBy: submission.submittedBy,
    createdAt: submission.createdAt,
    updatedAt: submission.updatedAt,
    ...(submission.notificationsRecoverAt === undefined ? {} : { notificationsRecoverAt: submission.notificationsRecoverAt }),
  };
}

function toSubmission(document: SubmissionDocument): Submission {
  return {
    id: fromObjectId(document._id),
    tenantId: document.tenantId,
    formId: fromObjectId(document.formId),
    values: { ...document.values },
    relations: toRelations(document.relations ?? {}),
    submittedBy: document.submittedBy ?? null,
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
    ...(document.notificationsRecoverAt === undefined ? {} : { notificationsRecoverAt: document.notificationsRecoverAt }),
  };
}

function toRelations(relations: SubmissionDocument['relations']): SubmissionRelations {
  return Object.fromEntries(
    Object.entries(relations).map(([field, ids]) => [field, Array.isArray(ids) ? ids.map(fromObjectId) : fromObjectId(ids)]),
  );
}
