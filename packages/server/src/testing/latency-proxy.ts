/**
 * Wraps a repository so every call waits a few milliseconds before reaching it, as a call to a
 * networked store would. Over HTTP the in-memory adapters otherwise finish each request within
 * one turn of the event loop, so concurrent requests never interleave and a race could not show.
 * The delay comes before the call: the wrapped adapter's own atomicity is untouched.
 */
export function withLatency<T extends object>(target: T, maxMs = 4, seed = 1): T {
  let state = seed;
  const nextDelay = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % (maxMs + 1);
  };
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        await new Promise((resolve) => setTimeout(resolve, nextDelay()));
        return value.apply(object, args);
      };
    },
  });
}
