/**
 * An operation's input, given now or read on demand. A use case that admits its caller first
 * (guest engagement) reads it only once the caller is admitted, so a refused caller's input is
 * never read: over HTTP, a refused guest's body is not even parsed, as the contract's order of
 * checks requires. Embedding code usually passes the value itself.
 */
export type Deferred<T> = T | (() => Promise<T>);

export function settleInput<T>(input: Deferred<T>): T | Promise<T> {
  return typeof input === 'function' ? (input as () => Promise<T>)() : input;
}
