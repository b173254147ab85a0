/**
 * Wraps a repository so every call waits a few milliseconds before reaching it, as a call to a
 * networked store would. Over HTTP the in-memory adapters otherwise finish each request within
 * one turn of the event loop, so concurrent requests never interleave and a race could not show.
 * The delay comes before the call: the wrapped adapter's own atomicity is untouched.
 */
import type { PortToken } from '@cms/core';
import type { Container } from 'inversify';

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

/**
 * Puts latency in front of whatever adapter the storage bound to `token` (the memory adapter,
 * or the Mongo repository over the collection double), so a suite races the real adapter of
 * each storage it runs on. Call it from `configure`.
 */
export function addLatency<T extends object>(container: Container, token: PortToken<T>, maxMs = 4, seed = 1): void {
  const bound = container.get<T>(token);
  container.rebind<T>(token).toConstantValue(withLatency(bound, maxMs, seed));
}
