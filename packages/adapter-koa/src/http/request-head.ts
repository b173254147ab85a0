/**
 * What the per-request layers (credentials, CAPTCHA token, body reader, CORS, dispatch, the log
 * line) read of a request's head, read from Node's own objects. Koa's
 * `ctx.get`, `ctx.method` and `ctx.path` reach the same values through `delegates`, whose one
 * shared accessor per name (`this[target][name]`) sees every name of every context: a
 * megamorphic lookup each time, which perf showed in the runtime on every request (decision 0790).
 */
import type { Context } from 'koa';

/**
 * The longest request target (path and query, as sent) the service reads: RFC 9112 §3 asks
 * every recipient to take request lines of at least 8,000 octets. A longer one is answered 414
 * (decision 0831), by the routes' dispatch or, when it fills Node's 16 KiB head limit, on the
 * socket.
 */
export const MAX_REQUEST_TARGET = 8192;

/**
 * A request header as `ctx.get` gives it, '' when absent. `name` is lower-case, as Node keys
 * them; Node joins a repeated header into one string (all but `set-cookie`, which no layer reads).
 */
export function headerOf(ctx: Context, name: string): string {
  const value = ctx.req.headers[name];
  return typeof value === 'string' ? value : '';
}

/**
 * True when the request carries the header more than once. Node keeps only the first of some
 * repeated headers (`authorization` among them) in `headers`; the raw list has them all. `name`
 * is lower case.
 */
export function headerRepeated(ctx: Context, name: string): boolean {
  const raw = ctx.req.rawHeaders;
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const given = raw[i]!;
    if (given.length === name.length && given.toLowerCase() === name && ++seen > 1) return true;
  }
  return false;
}

/** The request method, as `ctx.method`. */
export function methodOf(ctx: Context): string {
  return ctx.req.method ?? '';
}

/** The request path, as `ctx.path` (`ctx.request`'s own accessor, parsed once per request by Koa). */
export function pathOf(ctx: Context): string {
  return ctx.request.path;
}
