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
  /** Sets each changed property and the audit fields in one atomic step; null when absent. */
  applyChanges(
    tenantId: string,
    changes: readonly TemplateChange[],
    audit: { updatedBy: string; updatedAt: Date },
  ): Promise<RepurposeTemplate | null>;
}

export const RepurposeTemplateRepositoryToken: PortToken<RepurposeTemplateRepository> = portToken('RepurposeTemplateRepository');
