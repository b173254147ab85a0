/**
 * In-memory forms. The slug index plays the part of Mongo's unique (tenantId, slug) index: the
 * check and the write happen without awaiting in between, so of racing inserts one wins.
 *
 * Forms live in a `JsonSnapshotTable`: each is kept as its JSON text, the way a document store
 * keeps a document, and read back as a deeply frozen snapshot that the most recently read forms
 * keep (decision 0617). A form as objects is some 100 heap objects, which the garbage collector
 * copies and traces while it lives; its text is one string. Forms are created and then mostly
 * left alone, so keeping them as objects made a form create pay a large share of its time in
 * collector work and copying (0617 has the figures). An update (§6.3) replaces the text and
 * keeps a frozen copy of the updated form among the recent reads, so the next read (the next
 * update's, often) does not parse it back (0770).
 *
 * A tenant's forms are kept in list order, and again per (`isActive`, `visibility`), so a filtered
 * page reads its matches only: a filter on one flag merges the two orders of its value (decision
 * 0761).
 *
 * The relation fields of every form are indexed by the form they target, as MongoDB's
 * `tenant_relation_target` index does, so a cascade finds the holders without parsing the
 * tenant's forms (decision 0767); a field an update renamed, retargeted or dropped stays indexed
 * until its form is deleted, since old submissions keep the ids it held.
 */
import { FORM_VISIBILITIES, RELATION_HISTORY_MAX, type Form, type FormVisibility } from '../forms/form.js';
import type { FormListFilter, FormRepository, RelationHolder } from '../forms/forms.ports.js';
import type { PageQuery } from '../shared/page-cursor.js';
import { JsonSnapshotTable } from './json-snapshot-table.js';
import { collectPage, KeysetIndex } from './keyset-index.js';
import { tenantKey } from './tenant-key.js';

/** How many read forms keep their snapshot between reads (about 4 KB each). */
export const RECENT_FORMS = 1024;

const FORM_DATES = ['createdAt', 'updatedAt'] as const;

export class MemoryFormRepository implements FormRepository {
  readonly #forms: JsonSnapshotTable<Form>;
  readonly #idBySlug = new Map<string, string>();
  /** Tenant → its forms in list order. */
  readonly #order = new KeysetIndex();
  /** (Tenant, isActive, visibility) → its forms in list order. */
  readonly #byFlags = new KeysetIndex();
  /**
   * (Tenant, targeted form) → the forms with relation fields that target it, or did before an
   * update renamed, retargeted or dropped them (old submissions keep what they hold, §6.3) →
   * those fields' names.
   */
  readonly #holders = new Map<string, Map<string, Set<string>>>();
  /** (Tenant, form) → the keys of `#holders` that name it, for its delete. */
  readonly #targetsOf = new Map<string, Set<string>>();

  constructor(recentLimit = RECENT_FORMS) {
    this.#forms = new JsonSnapshotTable<Form>(FORM_DATES, recentLimit);
  }

  async insert(form: Form): Promise<boolean> {
    const slugKey = tenantKey(form.tenantId, form.slug);
    if (this.#idBySlug.has(slugKey)) return false;
    const idKey = tenantKey(form.tenantId, form.id);
    if (!this.#forms.insert(idKey, form)) throw new Error(`duplicate form id ${form.id}`);
    this.#idBySlug.set(slugKey, form.id);
    this.#order.add(form.tenantId, form, idKey);
    this.#byFlags.add(flagsGroup(form.tenantId, form.isActive, form.visibility), form, idKey);
    this.#indexRelations(form, idKey);
    return true;
  }

  async findById(tenantId: string, id: string): Promise<Form | null> {
    return this.#forms.get(tenantKey(tenantId, id)) ?? null;
  }

  async update(form: Form, expected: Date): Promise<'updated' | 'stale' | 'slugTaken' | 'relationHistoryFull'> {
    const idKey = tenantKey(form.tenantId, form.id);
    const current = this.#forms.get(idKey);
    if (!current || current.updatedAt.getTime() !== expected.getTime()) return 'stale';
    if (this.#relationHistoryFull(form, idKey)) return 'relationHistoryFull';
    if (form.slug !== current.slug) {
      const slugKey = tenantKey(form.tenantId, form.slug);
      if (this.#idBySlug.has(slugKey)) return 'slugTaken';
      this.#idBySlug.delete(tenantKey(form.tenantId, current.slug));
      this.#idBySlug.set(slugKey, form.id);
    }
    // The creation stamp stays the stored one. A form that already carries it (UpdateForm's do) is
    // stored as it is, so the text written for it is the one its answer takes (decision 0618).
    const keepsStamp = form.createdBy === current.createdBy && form.createdAt.getTime() === current.createdAt.getTime();
    this.#forms.put(idKey, keepsStamp ? form : { ...form, createdBy: current.createdBy, createdAt: current.createdAt });
    if (form.isActive !== current.isActive || form.visibility !== current.visibility) {
      // Filed under the stored creation time, which the update keeps.
      this.#byFlags.remove(flagsGroup(form.tenantId, current.isActive, current.visibility), current);
      this.#byFlags.add(flagsGroup(form.tenantId, form.isActive, form.visibility), current, idKey);
    }
    this.#indexRelations(form, idKey);
    return 'updated';
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const key = tenantKey(tenantId, id);
    const form = this.#forms.get(key);
    if (!form) return false;
    this.#forms.delete(key);
    this.#idBySlug.delete(tenantKey(tenantId, form.slug));
    this.#order.remove(tenantId, form);
    this.#byFlags.remove(flagsGroup(tenantId, form.isActive, form.visibility), form);
    this.#unindexRelations(key, id);
    return true;
  }

  async findBySlug(tenantId: string, slug: string): Promise<Form | null> {
    const id = this.#idBySlug.get(tenantKey(tenantId, slug));
    return id === undefined ? null : (this.#forms.get(tenantKey(tenantId, id)) ?? null);
  }

  async list(tenantId: string, filter: FormListFilter, page: PageQuery): Promise<Form[]> {
    const { isActive, visibility } = filter;
    const read = (key: string) => this.#forms.get(key);
    if (isActive === undefined && visibility === undefined) return collectPage(this.#order.itemsFor(tenantId, page), read, page);
    const groups: string[] = [];
    for (const active of isActive === undefined ? [true, false] : [isActive]) {
      for (const shown of visibility === undefined ? FORM_VISIBILITIES : [visibility]) groups.push(flagsGroup(tenantId, active, shown));
    }
    return collectPage(this.#byFlags.itemsForAny(groups, page), read, page);
  }

  async existingIds(tenantId: string, ids: readonly string[]): Promise<string[]> {
    return [...new Set(ids)].filter((id) => this.#forms.has(tenantKey(tenantId, id)));
  }

  async relationHoldersOf(tenantId: string, formId: string): Promise<RelationHolder[]> {
    const holders: RelationHolder[] = [];
    for (const [holderId, fieldNames] of this.#holders.get(tenantKey(tenantId, formId)) ?? []) {
      for (const fieldName of fieldNames) holders.push({ formId: holderId, fieldName });
    }
    return holders;
  }

  /** Adds the form's relation fields to the index of targets; what an earlier version added stays. */
  #indexRelations(form: Form, formKey: string): void {
    let targets = this.#targetsOf.get(formKey);
    for (const section of form.sections) {
      for (const field of section.fields) {
        if (!field.relation) continue;
        const key = tenantKey(form.tenantId, field.relation.formId);
        let holders = this.#holders.get(key);
        if (!holders) this.#holders.set(key, (holders = new Map()));
        // A set: a form renamed field after field keeps every old name (0767), and a list's
        // `includes` made each update cost its fields times every name the form ever had.
        const names = holders.get(form.id);
        if (names === undefined) holders.set(form.id, new Set([field.name]));
        else names.add(field.name);
        if (!targets) this.#targetsOf.set(formKey, (targets = new Set()));
        targets.add(key);
      }
    }
  }

  /**
   * Whether storing `form` would make the distinct (name, target) relation fields the form has had
   * more than `RELATION_HISTORY_MAX`. Only an update that brings a new pair counts the history:
   * the common PATCH (no relation field, or the same ones) looks at its fields and stops.
   */
  #relationHistoryFull(form: Form, formKey: string): boolean {
    let added: Set<string> | undefined;
    for (const section of form.sections) {
      for (const field of section.fields) {
        if (!field.relation) continue;
        const key = tenantKey(form.tenantId, field.relation.formId);
        if (!this.#holders.get(key)?.get(form.id)?.has(field.name)) (added ??= new Set()).add(`${key}\u0000${field.name}`);
      }
    }
    if (added === undefined) return false;
    let count = added.size;
    for (const key of this.#targetsOf.get(formKey) ?? []) count += this.#holders.get(key)?.get(form.id)?.size ?? 0;
    return count > RELATION_HISTORY_MAX;
  }

  /** Takes every relation field the form has had out of the index of targets. */
  #unindexRelations(formKey: string, formId: string): void {
    for (const key of this.#targetsOf.get(formKey) ?? []) {
      const holders = this.#holders.get(key);
      if (holders?.delete(formId) && holders.size === 0) this.#holders.delete(key);
    }
    this.#targetsOf.delete(formKey);
  }
}

/** The group of a tenant's forms with these flags. */
const flagsGroup = (tenantId: string, isActive: boolean, visibility: FormVisibility): string => tenantKey(tenantId, `${isActive}:${visibility}`);
