import type { RepurposeTemplate } from '../repurpose/repurpose-template.js';
import type { RepurposeTemplateRepository, TemplateChange } from '../repurpose/repurpose.ports.js';
import { frozenCopy, frozenDate, setOwnMember, SnapshotTable } from './snapshot-table.js';

/**
 * In-memory repurpose templates. Each method reads and writes without awaiting in between, so
 * on the single JS thread it is as atomic as the Mongo adapter's single operations.
 */
export class MemoryRepurposeTemplateRepository implements RepurposeTemplateRepository {
  readonly #templates = new SnapshotTable<RepurposeTemplate>();

  async findOrCreate(candidate: RepurposeTemplate): Promise<RepurposeTemplate> {
    return this.#templates.get(candidate.tenantId) ?? this.#templates.put(candidate.tenantId, candidate);
  }

  async applyChanges(
    tenantId: string,
    changes: readonly TemplateChange[],
    audit: { updatedBy: string; updatedAt: Date },
  ): Promise<RepurposeTemplate | null> {
    // Built deeply frozen (see `withChanges`), so the table stores it without looking into it.
    const next = this.#templates.updateFrozen(tenantId, (current) =>
      Object.freeze({
        ...(withChanges(current, changes) as RepurposeTemplate),
        updatedBy: audit.updatedBy,
        updatedAt: frozenDate(audit.updatedAt),
      }),
    );
    return next ?? null;
  }
}

/**
 * `node` with the changes applied in order, as if each were set one after the other (`depth`:
 * how much of each change's path lies above `node`): one new frozen object per node on a
 * changed path, everything else shared, and a frozen copy of each value a change brings in, so
 * the result is deeply frozen by construction (`SnapshotTable.updateFrozen`). Applying the changes one by one rebuilt the path to
 * the root per change, and a PUT of the whole template is some 20 changes.
 */
function withChanges(node: unknown, changes: readonly TemplateChange[], depth = 0): unknown {
  // The last change that ends here replaces the node; only the changes after it apply on top.
  let from = 0;
  let base = node;
  for (let i = changes.length - 1; i >= 0; i--) {
    if (changes[i]!.path.length === depth) {
      base = frozenCopy(changes[i]!.value);
      from = i + 1;
      break;
    }
  }
  if (from === changes.length) return base;
  const byKey = new Map<string, TemplateChange[]>();
  for (let i = from; i < changes.length; i++) {
    const key = changes[i]!.path[depth]!;
    const list = byKey.get(key);
    if (list) list.push(changes[i]!);
    else byKey.set(key, [changes[i]!]);
  }
  const parent = (typeof base === 'object' && base !== null ? base : {}) as Record<string, unknown>;
  const out: Record<string, unknown> = { ...parent };
  for (const [key, list] of byKey) {
    setOwnMember(out, key, withChanges(Object.hasOwn(parent, key) ? parent[key] : undefined, list, depth + 1));
  }
  return Object.freeze(out);
}
