/**
 * Duplicate-key handling. Unique indexes are how the adapter refuses a second record (a taken
 * tenant id, a known key hash); an upsert that loses a race on a unique index is retried, and on
 * the retry it finds the winner's document and updates it (docs/decisions/0102-unique-index-races.md).
 */
export const DUPLICATE_KEY = 11000;

/** Recognised by code, not class: the driver's MongoServerError and MongoBulkWriteError both carry it. */
export function isDuplicateKeyError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === DUPLICATE_KEY;
}

/**
 * Runs an upsert, retrying when it fails on a duplicate key. MongoDB retries most such upserts
 * itself (equality filter on exactly the unique index's fields); this covers the rest.
 */
export async function retryUpsertOnDuplicateKey<T>(upsert: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await upsert();
    } catch (error) {
      if (!isDuplicateKeyError(error) || attempt >= attempts) throw error;
    }
  }
}
