/**
 * CORS for browser front ends on other origins (CONTRACT §8). Mounted only when origins are
 * configured (`CMS_CORS_ORIGINS`); without it there are no CORS headers and `OPTIONS` stays 405.
 * A listed origin's preflight is answered 204 here, before credentials (a browser sends no API
 * key on a preflight); its other answers, errors included, carry the allow and expose headers.
 * An origin not listed gets no `Access-Control-*` header at all.
 *
 * `Origin: null` (a sandboxed iframe, a `file:` page, a redirect across origins) is never echoed:
 * every such document sends the same `null`, so allowing it by name would allow all of them. With
 * `*` it is answered `*`, which says the same without naming it; a list cannot name it
 * (decision 0816).
 */
import type { Middleware } from 'koa';
import { headerOf, methodOf } from './request-head.js';
import type { CmsState } from './state.js';

export interface CorsSettings {
  /** Exact origins (`https://app.example.com`), or `*` for any. */
  readonly origins: readonly string[];
  /** How long a browser may cache a preflight answer. */
  readonly maxAgeSeconds?: number;
}

export const CORS_ALLOWED_HEADERS = [
  'x-api-key',
  'authorization',
  'content-type',
  'x-user-id',
  'x-guest-id',
  'x-captcha-token',
  'x-request-id',
  'if-match',
  'if-none-match',
  'traceparent',
  'tracestate',
] as const;
export const CORS_EXPOSED_HEADERS = ['x-request-id', 'etag', 'retry-after', 'allow'] as const;
const ALLOWED_METHODS = 'GET, HEAD, PUT, POST, PATCH, DELETE';
/** What a browser sends for a document with an opaque origin. */
const OPAQUE_ORIGIN = 'null';

export function corsMiddleware(settings: CorsSettings): Middleware<CmsState> {
  const anyOrigin = settings.origins.includes('*');
  const listed = new Set(settings.origins);
  if (listed.has(OPAQUE_ORIGIN)) throw new Error('CORS origins cannot list "null": every sandboxed or file: document sends it (use * to allow any origin)');
  const allowHeaders = CORS_ALLOWED_HEADERS.join(', ');
  const exposeHeaders = CORS_EXPOSED_HEADERS.join(', ');
  const maxAge = String(settings.maxAgeSeconds ?? 600);
  return (ctx, next) => {
    const origin = headerOf(ctx, 'origin');
    ctx.vary('Origin');
    if (origin === '' || !(anyOrigin || listed.has(origin))) return next();
    ctx.set('access-control-allow-origin', origin === OPAQUE_ORIGIN ? '*' : origin);
    if (methodOf(ctx) === 'OPTIONS' && headerOf(ctx, 'access-control-request-method') !== '') {
      ctx.set('access-control-allow-methods', ALLOWED_METHODS);
      ctx.set('access-control-allow-headers', allowHeaders);
      ctx.set('access-control-max-age', maxAge);
      ctx.status = 204;
      return undefined;
    }
    ctx.set('access-control-expose-headers', exposeHeaders);
    return next();
  };
}
