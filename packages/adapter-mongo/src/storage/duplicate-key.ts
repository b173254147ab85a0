/**
 * Duplicate-key handling. Unique indexes are how the adapter refuses a second record (a taken
 * tenant id, a known key hash); an upsert that loses a race on a unique index is retried, and on
 * the retry it finds the winner's document and updates it (docs/decisions/0102-unique-index-races.md).
 */
export const DUPLICATE_KEY = 11000;

/**
 * Recognised by code, not class: the driver's MongoServerError and MongoBulkWriteError both carry
 * it. With `index`, only a violation of that index counts (the server names it in the message,
 * `… index: <name> dup key: …`), so a clash on `_id` is not mistaken for a taken slug.
 */
export function isDuplicateKeyError(error: unknown, index?: string): boolean {
  if (typeof error !== 'object' || error === null || (error as { code?: unknown }).code !== DUPLICATE_KEY) return false;
  if (index === undefined) return true;
  const { errmsg, message } = error as { errmsg?: unknown; message?: unknown };
  return [errmsg, message].some((text) => typeof text === 'string' && text.includes(` index: ${index} dup key:`));
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
