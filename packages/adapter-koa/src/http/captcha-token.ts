/**
 * The caller's CAPTCHA token as §1.4 places it: header `x-captcha-token`, else query parameter
 * `captchaToken`; never the body. Read for every caller, users included, because a form's
 * CAPTCHA gate applies to whoever submits (the guest identity carries it for guests only).
 */
import type { Context } from 'koa';
import { requestQuery } from './request-query.js';
import { headerOf } from './request-head.js';

export function captchaTokenOf(ctx: Context): string | undefined {
  const fromHeader = headerOf(ctx, 'x-captcha-token');
  if (fromHeader !== '') return fromHeader;
  const fromQuery = requestQuery(ctx).captchaToken;
  return (typeof fromQuery === 'string' ? fromQuery : undefined) || undefined;
}
