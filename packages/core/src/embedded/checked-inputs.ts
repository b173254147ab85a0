/**
 * The inputs of the use cases `createCore` hands out, checked at the one door embedding code
 * comes through (decision 0801): a use case's input is an object, so anything else (`null`, a
 * number, an array) is `VALIDATION_FAILED` at `''` before the use case reads a member of it,
 * never a `TypeError` from a destructuring. An input a use case may leave out (`list.execute(caller)`)
 * may still be left out. A use case that throws before its first `await` rejects like any other.
 * The HTTP adapter builds its use cases itself and always passes an object: it pays nothing.
 */
import { validationError } from '../shared/domain-error.js';

interface UseCase {
  execute(...args: never[]): unknown;
}

/** `useCase`, with its `execute` checking the input first (in place: the use case keeps its class and its `access`). */
export function checkedInput<T extends UseCase>(useCase: T): T {
  const execute = useCase.execute as (this: T, ...args: unknown[]) => unknown;
  // An optional input is declared with a default (`input = {}`), which `length` does not count.
  const required = execute.length >= 2;
  // Every use case is `execute(caller, input)` or `execute(caller)` (call-shape.spec.ts).
  const checked = {
    async execute(this: T, caller: unknown, input?: unknown): Promise<unknown> {
      if (input === undefined ? required : typeof input !== 'object' || input === null || Array.isArray(input)) {
        throw validationError('', 'must be an object');
      }
      return execute.call(this, caller, input);
    },
  };
  Object.defineProperty(useCase, 'execute', { value: checked.execute, writable: true, configurable: true });
  return useCase;
}

/** `checkedInput` on every use case of a group of the caller's use cases (`{ create, get, … }`). */
export function checkedInputs<G extends object>(group: G): G {
  for (const member of Object.values(group)) {
    if (typeof member === 'object' && member !== null && typeof (member as Partial<UseCase>).execute === 'function') checkedInput(member as UseCase);
  }
  return group;
}
