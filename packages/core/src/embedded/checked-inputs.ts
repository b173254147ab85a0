/**
 * The inputs of the use cases `createCore` hands out, checked at the one door embedding code
 * comes through (decision 0801): a use case's input is an object, so anything else (`null`, a
 * number, an array) is `VALIDATION_FAILED` at `''` before the use case reads a member of it,
 * never a `TypeError` from a destructuring. An input a use case may leave out (`list.execute(caller)`)
 * may still be left out. A use case that throws before its first `await` rejects like any other.
 * A caller that is not an object (`null`, left out) is `VALIDATION_FAILED` at `caller`, before the
 * input is looked at. The caller's ids are held to the rules HTTP holds its headers and tokens to
 * (CONTRACT §1.3-1.4): a user id that is not one counts as no user, a guest id that is not one
 * as no guest id, so an embedding service gets the answers an HTTP caller would
 * (`MISSING_USER_ID`, `UNAUTHORIZED`, `GUEST_ID_MISSING`), and no such id becomes a stored author
 * or a rate-limit key. A tenant id that is not a string (a number, a Symbol, an object) is read
 * as `''`, which names no tenant: a read finds nothing and a write is `VALIDATION_FAILED` at
 * `tenantId`, as for a string that is not a tenant id, and nothing ever turns it into text (a
 * Symbol cannot be; `123` would have become another tenant's `'123'`). Text that is
 * not well-formed Unicode (a lone surrogate, in a value or a key) is `VALIDATION_FAILED` naming
 * where, as over HTTP (decision 0822): MongoDB would store it changed. It is looked for first; a
 * deferred member (`Deferred<T>`) once the use case reads it.
 * The HTTP adapter builds its use cases itself and always passes an object: it pays nothing.
 */
import { GUEST_ID_PATTERN, USER_ID_PATTERN, type Caller } from '../shared/caller.js';
import { validationError } from '../shared/domain-error.js';
import { MALFORMED_TEXT, malformedTextPath } from '../shared/well-formed-text.js';

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
      if (typeof caller !== 'object' || caller === null) throw validationError('caller', 'must be an object');
      if (input === undefined ? required : typeof input !== 'object' || input === null || Array.isArray(input)) {
        throw validationError('', 'must be an object');
      }
      return execute.call(this, callerWithValidIds(caller), input === undefined ? input : wellFormedInput(input as object));
    },
  };
  Object.defineProperty(useCase, 'execute', { value: checked.execute, writable: true, configurable: true });
  return useCase;
}

/** The caller, or a copy without the user or the guest id that is not a well-formed id, and with `''` for a tenant id that is not a string. */
function callerWithValidIds(caller: object): object {
  const { tenantId, user, guest } = caller as Partial<Caller>;
  const badTenant = typeof tenantId !== 'string';
  const badUser = user !== undefined && !isId(user?.id, USER_ID_PATTERN);
  const badGuest = guest?.id !== undefined && !isId(guest.id, GUEST_ID_PATTERN);
  if (!badTenant && !badUser && !badGuest) return caller;
  return {
    ...caller,
    ...(badTenant ? { tenantId: NO_TENANT } : {}),
    ...(badUser ? { user: undefined } : {}),
    ...(badGuest ? { guest: { ...guest, id: undefined } } : {}),
  };
}

/** A tenant id no tenant can have (the pattern needs a character): the stand-in for one that is not a string. */
const NO_TENANT = '';

const isId = (id: unknown, pattern: RegExp): boolean => typeof id === 'string' && pattern.test(id);

/**
 * The input, refused when it holds malformed text; what its function members answer checked
 * when it comes. A member is called as it was given (its arguments, synchronously): a deferred
 * member (`Deferred<T>`) answers a promise, checked once it settles; a check such as
 * `checkShape` answers nothing and refuses by throwing, which reaches its caller at once.
 */
function wellFormedInput(input: object): object {
  const path = malformedTextPath(input);
  if (path !== undefined) throw validationError(path, MALFORMED_TEXT);
  let membersChecked: Record<string, unknown> | undefined;
  for (const [key, member] of Object.entries(input)) {
    if (typeof member !== 'function') continue;
    const wellFormed = (answer: unknown) => {
      const at = malformedTextPath(answer, key);
      if (at !== undefined) throw validationError(at, MALFORMED_TEXT);
      return answer;
    };
    membersChecked ??= { ...input };
    membersChecked[key] = (...args: unknown[]): unknown => {
      const answer: unknown = (member as (...args: unknown[]) => unknown).apply(input, args);
      // Any thenable, as `await` takes it: a promise of another realm (vm) is not `instanceof Promise`.
      return typeof (answer as { then?: unknown } | null)?.then === 'function' ? Promise.resolve(answer).then(wellFormed) : wellFormed(answer);
    };
  }
  return membersChecked ?? input;
}

/** `checkedInput` on every use case of a group of the caller's use cases (`{ create, get, … }`). */
export function checkedInputs<G extends object>(group: G): G {
  for (const member of Object.values(group)) {
    if (typeof member === 'object' && member !== null && typeof (member as Partial<UseCase>).execute === 'function') checkedInput(member as UseCase);
  }
  return group;
}
