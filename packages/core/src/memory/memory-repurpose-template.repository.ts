import type { RepurposeTemplate } from '../repurpose/repurpose-template.js';
import type { RepurposeTemplateRepository, TemplateChange } from '../repurpose/repurpose.ports.js';
import { sameData } from '../shared/unchanged-parts.js';
import { frozenDate, setOwnMember, SnapshotTable } from './snapshot-table.js';

/**
 * In-memory repurpose templates. Each method reads and writes without awaiting in between, so
 * on the single JS thread it is as atomic as the Mongo adapter's single operations.
 */
export class MemoryRepurposeTemplateRepository implements RepurposeTemplateRepository {
  readonly #templates = new SnapshotTable<RepurposeTemplate>();

  async findOrCreate(candidate: RepurposeTemplate): Promise<RepurposeTemplate> {
    return this.#templates.get(candidate.tenantId) ?? this.#templates.put(candidate.tenantId, candidate);
  }

  async find(tenantId: string): Promise<RepurposeTemplate | null> {
    return this.#templates.get(tenantId) ?? null;
  }

  async applyChanges(
    tenantId: string,
    changes: readonly TemplateChange[],
    audit: { updatedBy: string; updatedAt: Date },
    expected?: RepurposeTemplate,
  ): Promise<RepurposeTemplate | null> {
    if (expected !== undefined && !showsSame(this.#templates.get(tenantId), expected)) return null;
    // Built deeply frozen (see `withChanges`), so the table stores it without looking into it.
    const next = this.#templates.updateFrozen(tenantId, (current) =>
      withChanges(current, changes, { updatedBy: audit.updatedBy, updatedAt: frozenDate(audit.updatedAt) }),
    );
    return next ?? null;
  }
}

/** Whether the stored template shows what `expected` shows: the Mongo adapter's conditional filter, member by member. */
function showsSame(stored: RepurposeTemplate | undefined, expected: RepurposeTemplate): boolean {
  if (stored === undefined) return false;
  if (stored === expected) return true;
  return (
    stored.updatedBy === expected.updatedBy &&
    stored.createdAt.getTime() === expected.createdAt.getTime() &&
    stored.updatedAt.getTime() === expected.updatedAt.getTime() &&
    sameData(stored.defaults, expected.defaults) &&
    sameData(stored.platforms, expected.platforms)
  );
}

/**
 * `template` with the audit members and the changes set in order, one after the other: a new
 * object for each node on a changed path (made once, however many changes pass through it),
 * everything else shared, then the new nodes frozen, so the result is deeply frozen by
 * construction (`SnapshotTable.updateFrozen`; a change's value is a string or a number). A PUT
 * of the whole template is some 20 changes: rebuilding the path to the root per change copied
 * the root 20 times, and grouping the changes by key per level first cost a Map and a list per
 * node (decision 0769).
 */
function withChanges(
  template: RepurposeTemplate,
  changes: readonly TemplateChange[],
  audit: Pick<RepurposeTemplate, 'updatedBy' | 'updatedAt'>,
): RepurposeTemplate {
  const root: Record<string, unknown> = { ...template, ...audit };
  const made = new Set<object>([root]);
  for (const { path, value } of changes) {
    let node = root;
    const last = path.length - 1;
    for (let i = 0; i < last; i++) {
      const key = path[i]!;
      const held = Object.hasOwn(node, key) ? node[key] : undefined;
      const child = typeof held === 'object' && held !== null ? (held as Record<string, unknown>) : undefined;
      if (child && made.has(child)) {
        node = child;
        continue;
      }
      const copy: Record<string, unknown> = { ...child };
      made.add(copy);
      setOwnMember(node, key, copy);
      node = copy;
    }
    setOwnMember(node, path[last]!, value);
  }
  for (const node of made) Object.freeze(node);
  return root as unknown as RepurposeTemplate;
}
