/** Categories: top-level ones and one level of sub-categories; either can switch reactions off. */
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

export function toCategoryView({ tenantId: _tenantId, ...view }: Category): CategoryView {
  return view;
}
