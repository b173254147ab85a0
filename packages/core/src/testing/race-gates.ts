/**
 * Where a storage's calls wait during a drawn race (the race contracts of
 * `@cms/core/testing/contracts`): at a gate that fast-check's scheduler opens in an order it
 * draws. An adapter decides where its calls wait: `scheduledStores` gates every async method of
 * the repositories, `gatedCall` any call below them (the MongoDB adapter's tests gate each
 * database command). Needs nothing beyond core.
 */

/** What a gate waits on: fast-check's scheduler, by the one method it has that the gates use, and an optional hook of the crash contracts. */
export interface RaceScheduler {
  schedule<T>(task: Promise<T>, label?: string): Promise<T>;
  /**
   * Optional: each call's answer once the gate let it through; the caller gets what this
   * answers (the crash contract turns one into a lost acknowledgement). The answer as it is when
   * absent.
   */
  answered?<T>(answer: Promise<T>, label: string): Promise<T>;
}

/** Where gated calls wait: no scheduler between races (set-up and checks call straight through). */
export interface RaceGate {
  current: RaceScheduler | undefined;
}

/** Makes `call` once the gate's scheduler lets it through (at once when no race is running). */
export function gatedCall<T>(gate: RaceGate, label: string, call: () => Promise<T>): Promise<T> {
  const scheduler = gate.current;
  if (!scheduler) return call();
  const through = scheduler.schedule(Promise.resolve(), label);
  return scheduler.answered ? through.then(() => scheduler.answered!(call(), label)) : through.then(call);
}

/**
 * `stores` with the async methods of those named waiting at `gate` before each call (the others,
 * and every method that is not an `async function`, call straight through).
 */
export function scheduledStores<S extends object>(stores: S, names: ReadonlyArray<keyof S & string>, gate: RaceGate): S {
  const gated = { ...stores };
  for (const name of names) gated[name] = gatedStore(stores[name] as object, name, gate) as S[typeof name];
  return gated;
}

function gatedStore<T extends object>(store: T, name: string, gate: RaceGate): T {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || value.constructor.name !== 'AsyncFunction') return value;
      const method = value as (...args: unknown[]) => Promise<unknown>;
      return (...args: unknown[]) => gatedCall(gate, `${name}.${String(property)}`, () => method.apply(target, args));
    },
  });
}

/** What a storage may tune in a race contract. */
export interface RaceOptions {
  /** Races per run unless RACE_RUNS says (default 1000): fewer for a storage whose races are slow. */
  readonly runs?: number;
}
