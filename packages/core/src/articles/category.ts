/** Categories: top-level ones and one level of sub-categories; either can switch reactions off. */
import { viewPerSnapshot, type SnapshotView } from '../shared/frozen-snapshots.js';

export const CATEGORY_NAME_MAX = 100;

export interface Category {
  readonly id: string;
  readonly tenantId: string;
  readonly name: string;
  /** The top-level category this one belongs to; null for a top-level category. */
  readonly parentId: string | null;
  readonly reactionsEnabled: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export type CategoryView = Omit<Category, 'tenantId'>;

/** What callers receive of a category: one shared frozen view per stored snapshot (`viewPerSnapshot`). */
export const toCategoryView: SnapshotView<Category, CategoryView> = viewPerSnapshot(({ tenantId: _tenantId, ...view }: Category): CategoryView => view);
