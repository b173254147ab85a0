/**
 * Forcing a race over HTTP: a repository's next calls of one method are held until all of them
 * have arrived, so requests sent together each read before any of them writes, on every run
 * instead of when timing allows.
 */

/** Holds the next `count` calls of `object[method]` until all have arrived, then lets them through; answers the restore. */
export function holdCalls<T extends object>(object: T, method: keyof T & string, count: number): () => void {
  const original = object[method] as (...args: unknown[]) => Promise<unknown>;
  const waiting: Array<() => void> = [];
  (object as Record<string, unknown>)[method] = async function (this: unknown, ...args: unknown[]) {
    if (waiting.length < count) {
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        if (waiting.length === count) for (const release of waiting) release();
      });
    }
    return original.apply(this, args);
  };
  return () => {
    (object as Record<string, unknown>)[method] = original;
  };
}
