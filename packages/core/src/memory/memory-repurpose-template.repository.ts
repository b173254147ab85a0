import { frozenCopy, frozenDate } from './copy-record.js';
import type { RepurposeTemplate } from '../repurpose/repurpose-template.js';
import type { RepurposeTemplateRepository, TemplateChange } from '../repurpose/repurpose.ports.js';

/**
 * In-memory repurpose templates. Each method reads and writes without awaiting in between, so
 * on the single JS thread it is as atomic as the Mongo adapter's single operations.
 */
export class MemoryRepurposeTemplateRepository implements RepurposeTemplateRepository {
  readonly #templates = new Map<string, RepurposeTemplate>();

  async findOrCreate(candidate: RepurposeTemplate): Promise<RepurposeTemplate> {
    if (!this.#templates.has(candidate.tenantId)) this.#templates.set(candidate.tenantId, frozenCopy(candidate));
    return this.#templates.get(candidate.tenantId)!;
  }

  async applyChanges(
    tenantId: string,
    changes: readonly TemplateChange[],
    audit: { updatedBy: string; updatedAt: Date },
  ): Promise<RepurposeTemplate | null> {
    const current = this.#templates.get(tenantId);
    if (!current) return null;
    let next: unknown = current;
    for (const { path, value } of changes) next = withPath(next, path, value);
    const stored = Object.freeze({ ...(next as RepurposeTemplate), updatedBy: audit.updatedBy, updatedAt: frozenDate(audit.updatedAt) });
    this.#templates.set(tenantId, stored);
    return stored;
  }
}

/** `node` with `value` at `path`: new frozen objects along the path, everything else shared. */
function withPath(node: unknown, path: readonly string[], value: unknown): unknown {
  if (path.length === 0) return frozenCopy(value);
  const parent = (typeof node === 'object' && node !== null ? node : {}) as Record<string, unknown>;
  const [key, ...rest] = path as [string, ...string[]];
  return Object.freeze({ ...parent, [key]: withPath(parent[key], rest, value) });
}
