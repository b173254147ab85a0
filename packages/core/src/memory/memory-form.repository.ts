/**
 * In-memory forms. The slug index plays the part of Mongo's unique (tenantId, slug) index: the
 * check and the write happen without awaiting in between, so of racing inserts one wins.
 */
import type { Form } from '../forms/form.js';
import type { FormRepository } from '../forms/forms.ports.js';
import { frozenCopy } from './copy-record.js';
import { tenantKey } from './tenant-key.js';

export class MemoryFormRepository implements FormRepository {
  readonly #forms = new Map<string, Form>();
  readonly #idBySlug = new Map<string, string>();

  async insert(form: Form): Promise<boolean> {
    const slugKey = tenantKey(form.tenantId, form.slug);
    if (this.#idBySlug.has(slugKey)) return false;
    const idKey = tenantKey(form.tenantId, form.id);
    if (this.#forms.has(idKey)) throw new Error(`duplicate form id ${form.id}`);
    this.#forms.set(idKey, frozenCopy(form));
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
