import type { Caller, Role } from '../shared/caller.js';

export function userCaller(tenantId: string, id: string, role: Role = 'member', verified = true): Caller {
  return { tenantId, user: { id, role, verified }, guest: undefined };
}

export function guestCaller(tenantId: string, id: string | undefined, captchaToken: string | undefined = 'token'): Caller {
  return { tenantId, user: undefined, guest: { id, captchaToken } };
}

export function anonymousCaller(tenantId: string): Caller {
  return { tenantId, user: undefined, guest: undefined };
}
