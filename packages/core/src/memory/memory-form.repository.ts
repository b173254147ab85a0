/**
 * In-memory forms. The slug index plays the part of Mongo's unique (tenantId, slug) index: the
 * check and the write happen without awaiting in between, so of racing inserts one wins.
 *
 * Forms live in a `JsonSnapshotTable`: each is kept as its JSON text, the way a document store
 * keeps a document, and read back as a deeply frozen snapshot that the most recently read forms
 * keep (decision 0617). A form as objects is some 100 heap objects, which the garbage collector
 * copies and traces while it lives; its text is one string. Forms are created and then mostly
 * left alone, so keeping them as objects made a form create pay a large share of its time in
 * collector work and copying (0617 has the figures). A stored form never changes (the port has
 * no update).
 */
import type { Form } from '../forms/form.js';
import type { FormRepository } from '../forms/forms.ports.js';
import { JsonSnapshotTable } from './json-snapshot-table.js';
import { tenantKey } from './tenant-key.js';

/** How many read forms keep their snapshot between reads (about 4 KB each). */
export const RECENT_FORMS = 1024;

const FORM_DATES = ['createdAt', 'updatedAt'] as const;

export class MemoryFormRepository implements FormRepository {
  readonly #forms: JsonSnapshotTable<Form>;
  readonly #idBySlug = new Map<string, string>();

  constructor(recentLimit = RECENT_FORMS) {
    this.#forms = new JsonSnapshotTable<Form>(FORM_DATES, recentLimit);
  }

  async insert(form: Form): Promise<boolean> {
    const slugKey = tenantKey(form.tenantId, form.slug);
    if (this.#idBySlug.has(slugKey)) return false;
    if (!this.#forms.insert(tenantKey(form.tenantId, form.id), form)) throw new Error(`duplicate form id ${form.id}`);
    this.#idBySlug.set(slugKey, form.id);
    return true;
  }

  async findById(tenantId: string, id: string): Promise<Form | null> {
    return this.#forms.get(tenantKey(tenantId, id)) ?? null;
  }

  async existingIds(tenantId: string, ids: readonly string[]): Promise<string[]> {
    return [...new Set(ids)].filter((id) => this.#forms.has(tenantKey(tenantId, id)));
  }
}
