import type { Caller, Role, UserIdentity } from './caller.js';
import { DomainError } from './domain-error.js';
import { ErrorCodes, type ErrorCode } from './error-codes.js';

/** The caller's user, or `MISSING_USER_ID` (or the code given) when the caller is not a user. */
export function requireUser(caller: Caller, code: ErrorCode = ErrorCodes.MISSING_USER_ID): UserIdentity {
  if (!caller.user) throw new DomainError(code, code === ErrorCodes.MISSING_USER_ID ? 'Missing userId' : 'Unauthorized');
  return caller.user;
}

/**
 * A user proven by a bearer token with one of the roles: no token is `UNAUTHORIZED`, another
 * role `FORBIDDEN`. A trusted `x-user-id` header alone is not enough for privileged operations.
 */
export function requireRole(caller: Caller, roles: readonly Role[]): UserIdentity {
  const user = caller.user;
  // `true` itself: a caller built by hand with `verified: 'false'` is not proven.
  if (!user || user.verified !== true) throw new DomainError(ErrorCodes.UNAUTHORIZED, 'Unauthorized');
  if (!roles.includes(user.role)) throw new DomainError(ErrorCodes.FORBIDDEN, 'Forbidden');
  return user;
}
