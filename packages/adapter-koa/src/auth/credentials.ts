/**
 * Resolves the caller of a request, in the contract's order: API key → tenant, then a bearer
 * token if an `Authorization` header is sent (a bad, empty or repeated one is 401 on every
 * route), then `x-user-id`, then guest headers. The
 * caller's `peer` is the request's socket itself: its address is looked up only if a CAPTCHA
 * provider is called, and it is the socket's peer (a proxy in front is not looked behind: the
 * service has no trusted-proxy setting; decision 0816).
 */
import { DomainError, ErrorCodes, GUEST_ID_PATTERN, USER_ID_PATTERN, type AuthenticateApiKey, type Caller, type GuestIdentity } from '@cms/core';
import type { Context } from 'koa';
import { captchaTokenOf } from '../http/captcha-token.js';
import { headerOf, headerRepeated } from '../http/request-head.js';
import type { BearerVerifier } from './jwt-verifier.js';

const unauthorized = () => new DomainError(ErrorCodes.UNAUTHORIZED, 'Unauthorized');

export class CredentialResolver {
  constructor(
    private readonly apiKeys: AuthenticateApiKey,
    private readonly bearer: BearerVerifier,
  ) {}

  async resolve(ctx: Context): Promise<Caller> {
    const { tenantId } = await this.apiKeys.execute(headerOf(ctx, 'x-api-key') || undefined);
    ctx.state.tenantId = tenantId;

    const authorization = ctx.req.headers.authorization;
    if (authorization !== undefined) {
      // Present is enough to be judged (an empty one too: decision 0002), and sent twice it names
      // no one token: Node would keep the first, where a proxy in front may have checked the last.
      if (headerRepeated(ctx, 'authorization')) throw unauthorized();
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      const claims = match ? await this.bearer.verify(match[1]!) : undefined;
      if (!claims || (claims.tenant !== undefined && claims.tenant !== tenantId)) throw unauthorized();
      return { tenantId, user: { id: claims.userId, role: claims.role, verified: true }, guest: undefined, trace: ctx.state.trace, peer: ctx.req.socket };
    }

    const userId = headerOf(ctx, 'x-user-id');
    if (USER_ID_PATTERN.test(userId)) {
      return { tenantId, user: { id: userId, role: 'member', verified: false }, guest: undefined, trace: ctx.state.trace, peer: ctx.req.socket };
    }
    return { tenantId, user: undefined, guest: guestOf(ctx), trace: ctx.state.trace, peer: ctx.req.socket };
  }
}

/**
 * A guest's id (`x-guest-id`) and CAPTCHA token (header `x-captcha-token`, else query
 * `captchaToken`; one sent twice is none here, and refused by a route that reads it).
 */
function guestOf(ctx: Context): GuestIdentity {
  const guestId = headerOf(ctx, 'x-guest-id');
  return { id: GUEST_ID_PATTERN.test(guestId) ? guestId : undefined, captchaToken: captchaTokenOf(ctx) };
}
