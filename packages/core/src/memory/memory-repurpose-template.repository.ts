import { copyRecord } from './copy-record.js';
import type { RepurposeTemplate } from '../repurpose/repurpose-template.js';
import type { RepurposeTemplateRepository, TemplateChange } from '../repurpose/repurpose.ports.js';

/**
 * In-memory repurpose templates. Each method reads and writes without awaiting in between, so
 * on the single JS thread it is as atomic as the Mongo adapter's single operations.
 */
export class MemoryRepurposeTemplateRepository implements RepurposeTemplateRepository {
  readonly #templates = new Map<string, RepurposeTemplate>();

  async findOrCreate(candidate: RepurposeTemplate): Promise<RepurposeTemplate> {
    if (!this.#templates.has(candidate.tenantId)) this.#templates.set(candidate.tenantId, copyRecord(candidate));
    return copyRecord(this.#templates.get(candidate.tenantId)!);
  }

  async applyChanges(
    tenantId: string,
    changes: readonly TemplateChange[],
    audit: { updatedBy: string; updatedAt: Date },
  ): Promise<RepurposeTemplate | null> {
    const current = this.#templates.get(tenantId);
    if (!current) return null;
    const next = copyRecord(current);
    for (const { path, value } of changes) setPath(next as unknown as Record<string, unknown>, path, value);
    next.updatedBy = audit.updatedBy;
    next.updatedAt = audit.updatedAt;
    this.#templates.set(tenantId, next);
    return copyRecord(next);
  }
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]!] = value;
}
