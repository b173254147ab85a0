/**
 * In-memory forms. The slug index plays the part of Mongo's unique (tenantId, slug) index: the
 * check and the write happen without awaiting in between, so of racing inserts one wins.
 *
 * Each form is kept as its JSON text, the way a document store keeps a document, and read back
 * as a deeply frozen record (0614) that the most recently read forms keep (decision 0617). A
 * form as objects is some 100 heap objects and 4 KB, which the garbage collector copies and
 * traces while it lives; its text is one string of 1.7 KB. Forms are created and then mostly
 * left alone: keeping them as objects cost a form create some 25 µs (a fifth of it) in
 * collector work and copying. An update (§6.3) replaces the text and drops the form from the
 * recent reads, so the next read parses the new text.
 */
import type { Form } from '../forms/form.js';
import type { FormListFilter, FormRepository } from '../forms/forms.ports.js';
import type { PageQuery } from '../shared/page-cursor.js';
import { frozenRecordFromJson, recordJson } from './copy-record.js';
import { collectPage, KeysetIndex } from './keyset-index.js';
import { tenantKey } from './tenant-key.js';

/** How many read forms keep their record between reads (about 4 KB each). */
export const RECENT_FORMS = 1024;

const FORM_DATES = ['createdAt', 'updatedAt'] as const;

export class MemoryFormRepository implements FormRepository {
  /** Tenant and id → the form's JSON text. */
  readonly #texts = new Map<string, string>();
  readonly #idBySlug = new Map<string, string>();
  /**
   * Records of forms read lately, first read first: the oldest goes when the limit is reached
   * (a hit does not move a form up, which would cost every read two more map operations).
   */
  readonly #recent = new Map<string, Form>();
  /** Tenant → its forms in list order. */
  readonly #order = new KeysetIndex();

  constructor(private readonly recentLimit = RECENT_FORMS) {}

  async insert(form: Form): Promise<boolean> {
    const slugKey = tenantKey(form.tenantId, form.slug);
    if (this.#idBySlug.has(slugKey)) return false;
    const idKey = tenantKey(form.tenantId, form.id);
    if (this.#texts.has(idKey)) throw new Error(`duplicate form id ${form.id}`);
    this.#texts.set(idKey, recordJson(form, FORM_DATES)); // a copy: the caller's later changes stay its own
    this.#idBySlug.set(slugKey, form.id);
    this.#order.add(form.tenantId, form, idKey);
    return true;
  }

  async findById(tenantId: string, id: string): Promise<Form | null> {
    return this.#read(tenantKey(tenantId, id)) ?? null;
  }

  async update(form: Form, expected: Date): Promise<'updated' | 'stale' | 'slugTaken'> {
    const idKey = tenantKey(form.tenantId, form.id);
    const current = this.#read(idKey);
    if (!current || current.updatedAt.getTime() !== expected.getTime()) return 'stale';
    if (form.slug !== current.slug) {
      const slugKey = tenantKey(form.tenantId, form.slug);
      if (this.#idBySlug.has(slugKey)) return 'slugTaken';
      this.#idBySlug.delete(tenantKey(form.tenantId, current.slug));
      this.#idBySlug.set(slugKey, form.id);
    }
    this.#texts.set(idKey, recordJson({ ...form, createdBy: current.createdBy, createdAt: current.createdAt }, FORM_DATES));
    this.#recent.delete(idKey); // the next read parses the new text
    return 'updated';
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const key = tenantKey(tenantId, id);
    const form = this.#read(key);
    if (!form) return false;
    this.#texts.delete(key);
    this.#recent.delete(key);
    this.#idBySlug.delete(tenantKey(tenantId, form.slug));
    this.#order.remove(tenantId, form);
    return true;
  }

  async findBySlug(tenantId: string, slug: string): Promise<Form | null> {
    const id = this.#idBySlug.get(tenantKey(tenantId, slug));
    return id === undefined ? null : (this.#read(tenantKey(tenantId, id)) ?? null);
  }

  async list(tenantId: string, filter: FormListFilter, page: PageQuery): Promise<Form[]> {
    const keep = (form: Form) =>
      (filter.isActive === undefined || form.isActive === filter.isActive) && (filter.visibility === undefined || form.visibility === filter.visibility);
    return collectPage(this.#order.keysFor(tenantId, page), (key) => this.#read(key), page, keep);
  }

  #read(key: string): Form | undefined {
    const recent = this.#recent.get(key);
    if (recent !== undefined) return recent;
    const text = this.#texts.get(key);
    if (text === undefined) return undefined;
    const form = frozenRecordFromJson<Form>(text, FORM_DATES);
    this.#recent.set(key, form);
    if (this.#recent.size > this.recentLimit) this.#recent.delete(this.#recent.keys().next().value!);
    return form;
  }

  async existingIds(tenantId: string, ids: readonly string[]): Promise<string[]> {
    return [...new Set(ids)].filter((id) => this.#texts.has(tenantKey(tenantId, id)));
  }
}
