/** Who is calling, as resolved by an inbound adapter from credentials. */
import type { TraceContext } from './trace-context.js';

export const ROLES = ['admin', 'editor', 'author', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** A user's id (CONTRACT §1.3: `x-user-id`, a bearer token's `sub`). */
export const USER_ID_PATTERN = /^[A-Za-z0-9_.:@-]{1,128}$/;
/** A guest's id (CONTRACT §1.4: `x-guest-id`). */
export const GUEST_ID_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

export interface UserIdentity {
  readonly id: string;
  readonly role: Role;
  /** true when the identity comes from a verified bearer token, false for a trusted header. */
  readonly verified: boolean;
}

export interface GuestIdentity {
  /** Absent when the caller sent no valid guest id. */
  readonly id: string | undefined;
  readonly captchaToken: string | undefined;
}

/**
 * Where a request came from on the network, as the inbound adapter sees it. Its address is read
 * only by a call that can use it (a CAPTCHA provider's `remoteip`), so an adapter may hand over
 * an object that looks the address up when asked (an HTTP adapter: its connection).
 */
export interface NetworkPeer {
  /** The peer's IP address; behind a proxy, the proxy's unless the adapter says otherwise. */
  readonly remoteAddress?: string | undefined;
}

export interface Caller {
  readonly tenantId: string;
  readonly user: UserIdentity | undefined;
  readonly guest: GuestIdentity | undefined;
  /** The request's trace context (W3C), for outbound calls made on the caller's behalf. */
  readonly trace?: TraceContext;
  /** The request's network peer, for outbound calls that pass the client's address on. */
  readonly peer?: NetworkPeer;
}

/** The actor a per-caller record (a reaction) belongs to: a user id or a guest id, never both. */
export function actorKey(caller: Caller): string | undefined {
  if (caller.user) return `user:${caller.user.id}`;
  if (caller.guest?.id) return `guest:${caller.guest.id}`;
  return undefined;
}
