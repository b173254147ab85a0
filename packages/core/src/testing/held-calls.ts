/**
 * Forcing an interleaving in a use-case spec: one side's store call is held until the other
 * side has done its part. For core's own specs (not part of the `./testing` entry).
 */

/** A promise and its resolver. */
export function signal(): { promise: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const promise = new Promise<void>((resolve) => (fire = resolve));
  return { promise, fire };
}

/**
 * Holds the next call of `object[method]` until `release` settles, then makes it; the method is
 * itself again after that call. The promise answered settles when the held call is made.
 */
export function holdNext<T extends object, K extends keyof T>(object: T, method: K, release: Promise<void>): Promise<void> {
  const arrived = signal();
  const original = object[method] as (...args: unknown[]) => Promise<unknown>;
  (object as Record<K, unknown>)[method] = async (...args: unknown[]) => {
    (object as Record<K, unknown>)[method] = original;
    arrived.fire();
    await release;
    return original.apply(object, args);
  };
  return arrived.promise;
}

/**
 * Runs `held` with the next call of `object[method]` held, runs `meanwhile` once that call is
 * held, then lets it go: what `held` answered.
 */
export async function whileHeld<T>(object: object, method: string, held: () => Promise<T>, meanwhile: () => Promise<unknown>): Promise<T> {
  const release = signal();
  const arrived = holdNext(object as Record<string, unknown>, method, release.promise);
  const answer = held();
  answer.catch(() => undefined);
  await arrived;
  await meanwhile();
  release.fire();
  return answer;
}
