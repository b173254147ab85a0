/**
 * Storage ports of the forms module. Every method is scoped to a tenant: another tenant's
 * record behaves exactly like one that does not exist. Ids passed in are canonical (lowercase).
 */
import type { PageQuery } from '../shared/page-cursor.js';
import { portToken, type PortToken } from '../shared/port-token.js';
import type { Form, FormVisibility } from './form.js';
import type { Submission } from './submission.js';

export interface FormRepository {
  /**
   * Stores a new form. Returns false, storing nothing, when the tenant already has a form with
   * that slug — decided by the store itself (a unique constraint), so of two racing inserts with
   * one slug exactly one returns true.
   */
  insert(form: Form): Promise<boolean>;
  findById(tenantId: string, id: string): Promise<Form | null>;
  /**
   * Replaces the form's definition (everything but id, tenant, creator and creation time) only if
   * its stored `updatedAt` is still `expected`, in one atomic step. `slugTaken`: another form of
   * the tenant has the new slug (decided by the store's unique constraint, as on insert);
   * `stale`: the form changed or is gone; `relationHistoryFull`: the relation fields the form has
   * had, with the new ones, would be more than `RELATION_HISTORY_MAX` (distinct name and target
   * pairs). Nothing is written unless `updated`.
   */
  update(form: Form, expected: Date): Promise<'updated' | 'stale' | 'slugTaken' | 'relationHistoryFull'>;
  /** Deletes the form in one atomic step; true only for the call that deleted it. */
  delete(tenantId: string, id: string): Promise<boolean>;
  /** The tenant's form with this slug, or null (§6.2). */
  findBySlug(tenantId: string, slug: string): Promise<Form | null>;
  /** Which of `ids` are forms of the tenant (in any order, without duplicates). */
  existingIds(tenantId: string, ids: readonly string[]): Promise<string[]>;
  /** One keyset page of the tenant's forms matching every given filter (§6.1). */
  list(tenantId: string, filter: FormListFilter, page: PageQuery): Promise<Form[]>;
  /**
   * The relation fields, in any form of the tenant, whose targets are `formId`'s submissions: where
   * ids of those submissions can be held (§6.4 cascades). Found through an index on the targets,
   * so its cost follows the holders, never the tenant's number of forms (decision 0767).
   */
  relationHoldersOf(tenantId: string, formId: string): Promise<RelationHolder[]>;
}

export interface FormListFilter {
  readonly isActive?: boolean;
  readonly visibility?: FormVisibility;
}

/** A relation field that can hold ids of submissions of some form: which form's submissions hold it, under which name. */
export interface RelationHolder {
  readonly formId: string;
  readonly fieldName: string;
}

export interface DisconnectRelationCommand {
  readonly tenantId: string;
  readonly submissionId: string;
  readonly fieldName: string;
  readonly relatedId: string;
  readonly now: Date;
}

export interface ConnectRelationCommand {
  readonly tenantId: string;
  readonly submissionId: string;
  readonly fieldName: string;
  readonly relatedId: string;
  /**
   * false: `relations[fieldName]` becomes `relatedId`, replacing any earlier id (or list); when it
   * is that id already, nothing is written.
   * true: `relatedId` is appended to the list unless already in it, while the list holds fewer
   * than `cap` ids.
   */
  readonly multiple: boolean;
  readonly cap: number;
  readonly now: Date;
}

/**
 * - `connected`: the relation changed; `updatedAt` is `now`. `replaced`: what a single-value
 *   relation held before this write, absent when it held nothing (a list appended to replaces
 *   nothing): an id, or a list of ids when the form made the field single-value since.
 * - `unchanged`: the relation already held the id (a single value equal to it, or a list with
 *   it); nothing was written, `updatedAt` did not move.
 * - `full`: a multi-value list already holds `cap` ids and not this one; nothing was written.
 * - `missing`: no such submission in the tenant.
 *
 * `relatedExists`: whether `relatedId` was still a submission of the tenant when read AFTER the
 * write (false: it may have been erased after the caller checked it; the caller withdraws the
 * id, docs/decisions/0766-connect-racing-an-erasure.md).
 */
export type ConnectRelationResult =
  | { readonly status: 'connected'; readonly submission: Submission; readonly relatedExists: boolean; readonly replaced?: string | readonly string[] }
  | { readonly status: 'unchanged'; readonly submission: Submission; readonly relatedExists: boolean }
  | { readonly status: 'full' }
  | { readonly status: 'missing' };

/** The submission after a disconnect; `changed`: this call took the id out (a `submission.relation.disconnected` event). */
export interface DisconnectRelationResult {
  readonly submission: Submission;
  readonly changed: boolean;
}

/** Takes back a connect of `relatedId` (§6.4 erasure racing a connect, decision 0766). */
export interface WithdrawRelationCommand {
  readonly tenantId: string;
  readonly submissionId: string;
  readonly fieldName: string;
  readonly relatedId: string;
  /**
   * What a single value equal to `relatedId` becomes: what it replaced (an id, or a list), or
   * null (the key goes). A non-null `restore` is also set when the key is gone (the erasure's
   * clean-up may have taken it out between the connect's write and this call).
   */
  readonly restore: string | readonly string[] | null;
}

export interface SubmissionRepository {
  insert(submission: Submission): Promise<void>;
  findById(tenantId: string, id: string): Promise<Submission | null>;
  /** The tenant's submissions among `ids` (canonical ids), in no particular order; unknown ids are left out. One read. */
  findByIds(tenantId: string, ids: readonly string[]): Promise<Submission[]>;
  /**
   * Sets or appends one relation in a single atomic step on the stored submission (never a
   * read-modify-write of the whole `relations` object), so concurrent connects to one
   * multi-value field lose none.
   */
  connectRelation(command: ConnectRelationCommand): Promise<ConnectRelationResult>;
  /**
   * Deletes the submission in one atomic step; true only for the call that deleted it. With
   * `expected`, only while its stored `updatedAt` is still that (compare-and-delete, `If-Match`).
   */
  delete(tenantId: string, id: string, expected?: Date): Promise<boolean>;
  /**
   * Moves the submission's `updatedAt` from `expected` to `claimed` in one atomic step, changing
   * nothing else: an erasure's claim of the version its `If-Match` checked, before any step of
   * its cascade (decision 0765). False, with nothing written, when the submission is gone or its
   * `updatedAt` is no longer `expected`.
   */
  claimVersion(tenantId: string, id: string, expected: Date, claimed: Date): Promise<boolean>;
  /** Deletes every submission of the form (one `deleteMany`); returns how many. */
  deleteByForm(tenantId: string, formId: string): Promise<number>;
  /** Deletes the tenant's submissions among `ids` (one `deleteMany`); unknown ids are skipped; returns how many. */
  deleteByIds(tenantId: string, ids: readonly string[]): Promise<number>;
  /**
   * Takes `relatedIds` out of `relations[holder.fieldName]` of every submission of
   * `holder.formId`: removed from a list, the key removed when it holds one of them. Idempotent.
   */
  removeRelationsTo(tenantId: string, holder: RelationHolder, relatedIds: readonly string[]): Promise<number>;
  /**
   * §6.5: takes `relatedId` out of the relation in one atomic step (a list loses it, a single
   * value equal to it is removed; `updatedAt` becomes `now`) and returns the submission as stored
   * after, with `changed` true when this call took the id out; null when no such submission.
   */
  disconnectRelation(command: DisconnectRelationCommand): Promise<DisconnectRelationResult | null>;
  /**
   * Undoes a connect in one atomic step per shape: a list loses `relatedId`; a single value equal
   * to `relatedId`, or an absent key when `restore` is given, becomes `restore` (null: the key
   * goes). Any other value is left alone. `updatedAt` is left as it is; idempotent.
   */
  withdrawRelation(command: WithdrawRelationCommand): Promise<void>;
  /** One keyset page of the submissions of a form (§6.1; oldest first for the export). */
  listByForm(tenantId: string, formId: string, page: PageQuery): Promise<Submission[]>;
  /**
   * Claims up to `limit` submissions of every tenant whose `notificationsRecoverAt` has come
   * (≤ `now`), earliest first, moving it to `now + leaseMs` in the same atomic step, so that no
   * two callers get one submission within a lease (decision 0798). Returns them as stored after.
   */
  claimUnnotified(now: Date, leaseMs: number, limit: number): Promise<Submission[]>;
  /**
   * Takes `notificationsRecoverAt` off the submission: its jobs are in the outbox. Idempotent;
   * `updatedAt` is left as it is. False when there is no such submission (erased meanwhile).
   */
  confirmNotified(tenantId: string, id: string): Promise<boolean>;
}

export const FormRepositoryToken: PortToken<FormRepository> = portToken('FormRepository');
export const SubmissionRepositoryToken: PortToken<SubmissionRepository> = portToken('SubmissionRepository');
