/**
 * The caller's CAPTCHA token as §1.4 places it: header `x-captcha-token`, else query parameter
 * `captchaToken`; never the body. Read for every caller, users included, because a form's
 * CAPTCHA gate applies to whoever submits (the guest identity carries it for guests only).
 *
 * A `captchaToken` sent more than once (and no header) names no one token: a route that reads
 * the token refuses it 400 `query.captchaToken must be given only once`, in the words a repeated
 * `limit` gets, rather than calling the token missing (decision 0816). An `x-captcha-token` header
 * sent more than once likewise (`headers.x-captcha-token must be given only once`): Node joins
 * its lines with `, `, and that joined text was sent to the provider as one token. Elsewhere (the
 * guest identity of a route that reads no token) either is no token.
 */
import type { Context } from 'koa';
import { validationError } from '@cms/core/internal';
import { httpLocated } from './input-paths.js';
import { requestQuery } from './request-query.js';
import { headerOf, headerRepeated } from './request-head.js';

export type RepeatedCaptchaToken = 'refused' | 'absent';

export function captchaTokenOf(ctx: Context, repeated: RepeatedCaptchaToken = 'absent'): string | undefined {
  const fromHeader = headerOf(ctx, 'x-captcha-token');
  if (fromHeader !== '') {
    if (!headerRepeated(ctx, 'x-captcha-token')) return fromHeader;
    if (repeated === 'refused') throw httpLocated(validationError('headers.x-captcha-token', 'must be given only once'));
    return undefined;
  }
  const fromQuery = requestQuery(ctx).captchaToken;
  if (typeof fromQuery === 'string') return fromQuery || undefined;
  if (fromQuery !== undefined && repeated === 'refused') throw httpLocated(validationError('query.captchaToken', 'must be given only once'));
  return undefined;
}
