/** An author record: who wrote articles. Deleting one keeps its articles, with `authorId: null`. */
import { viewPerSnapshot, type SnapshotView } from '../shared/frozen-snapshots.js';

export const AUTHOR_NAME_MAX = 200;
export const AUTHOR_BIO_MAX = 5000;

export interface Author {
  readonly id: string;
  readonly tenantId: string;
  readonly name: string;
  readonly email: string | null;
  readonly bio: string | null;
  readonly avatarUrl: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What the operations answer: the record without its tenant. */
export type AuthorView = Omit<Author, 'tenantId'>;

/** One shared frozen view per stored snapshot (`viewPerSnapshot`). */
export const toAuthorView: SnapshotView<Author, AuthorView> = viewPerSnapshot(({ tenantId: _tenantId, ...view }: Author): AuthorView => view);
