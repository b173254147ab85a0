import { portToken, type PortToken } from '../shared/port-token.js';
import type { RepurposeTemplate } from './repurpose-template.js';

/** One property of the template to set: `['platforms', 'linkedin', 'tone']` → value. */
export interface TemplateChange {
  readonly path: readonly [string, ...string[]];
  readonly value: string | number;
}

export interface RepurposeTemplateRepository {
  /**
   * Stores `candidate` when the tenant has no template yet and returns the stored one. Atomic:
   * concurrent first calls store exactly one template and all return it.
   */
  findOrCreate(candidate: RepurposeTemplate): Promise<RepurposeTemplate>;
  /** The tenant's template, or null when it has none yet; creates nothing. */
  find(tenantId: string): Promise<RepurposeTemplate | null>;
  /**
   * Sets each changed property and the audit fields in one atomic step; null when absent. With
   * `expected`, only while the stored template still shows what `expected` shows (every member
   * of the template), else null and nothing is written: the condition is part of the same step,
   * so an `If-Match` checked against `expected` holds when the write lands (§6.3).
   */
  applyChanges(
    tenantId: string,
    changes: readonly TemplateChange[],
    audit: { updatedBy: string; updatedAt: Date },
    expected?: RepurposeTemplate,
  ): Promise<RepurposeTemplate | null>;
}

export const RepurposeTemplateRepositoryToken: PortToken<RepurposeTemplateRepository> = portToken('RepurposeTemplateRepository');
