/**
 * Who may run a use case, declared once, on the use case (`static readonly access`), and
 * enforced by the use case itself, so a service that embeds core gets the same rules as HTTP
 * callers. Inbound adapters read the same declaration: adapter-koa runs `checkAccess` at the
 * contract's place in its order of checks (before the id and the body), derives each route's
 * OpenAPI security from it, and docs/permissions.md is tested against it.
 */
import type { Caller, Role, UserIdentity } from './caller.js';
import { requireRole, requireUser } from './require-user.js';

export type Access =
  /** Any caller of the tenant. */
  | { readonly kind: 'anyone' }
  /** A user (token or `x-user-id`); without one the use case answers `missing`. */
  | { readonly kind: 'user'; readonly missing: 'MISSING_USER_ID' | 'UNAUTHORIZED' }
  /** A verified bearer token with one of the roles (no token `UNAUTHORIZED`, another role `FORBIDDEN`). */
  | { readonly kind: 'roles'; readonly roles: readonly Role[] }
  /**
   * A user, or a guest admitted by `AdmitGuest` (CAPTCHA, guest id, rate limit). Admission counts
   * against the rate limit, so it runs once, inside the use case, after the id check.
   */
  | { readonly kind: 'guest-engagement' };

export const ANYONE: Access = Object.freeze({ kind: 'anyone' });
export const GUEST_ENGAGEMENT: Access = Object.freeze({ kind: 'guest-engagement' });

export type UserAccess = Extract<Access, { kind: 'user' }>;

export function requiresUser(missing: UserAccess['missing'] = 'MISSING_USER_ID'): UserAccess {
  return Object.freeze({ kind: 'user', missing });
}

export type RolesAccess = Extract<Access, { kind: 'roles' }>;

export function requiresRoles(...roles: Role[]): RolesAccess {
  return Object.freeze({ kind: 'roles', roles: Object.freeze(roles) });
}

/**
 * Checks a caller against a user or role rule and answers the user it found. Pure, so an inbound
 * adapter may run it early and the use case again. Guest engagement is not checked here:
 * `AdmitGuest` decides it, and only the use case runs it.
 */
export function checkAccess(caller: Caller, access: Access): UserIdentity | undefined {
  switch (access.kind) {
    case 'roles':
      return requireRole(caller, access.roles);
    case 'user':
      return requireUser(caller, access.missing);
    default:
      return caller.user;
  }
}
