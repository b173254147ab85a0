import { actorKey, type Caller } from '../shared/caller.js';
import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';

/**
 * The actor a reaction or comment belongs to: the user, else the guest's valid `x-guest-id`.
 * A user and a guest are never the same actor, even with equal ids.
 */
export function requireActor(caller: Caller): string {
  const actor = actorKey(caller);
  if (!actor) throw new DomainError(ErrorCodes.GUEST_ID_MISSING, 'a guest needs a guest id to engage');
  return actor;
}
