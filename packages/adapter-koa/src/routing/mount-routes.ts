/**
 * Mounts declared routes on @koa/router. Each request runs the same pipeline, whose order is
 * the contract's: credentials → access (user, role) → path params → guest gate → query → body (read, then checked) →
 * handler → envelope. Unknown paths are 404, known paths with another method 405 + `Allow`.
 */
import Router from '@koa/router';
import { DomainError, entityTag, ErrorCodes, noneMatchHolds, type Caller } from '@cms/core';
import type { Context, Middleware } from 'koa';
import type { CredentialResolver } from '../auth/credentials.js';
import { captchaTokenOf } from '../http/captcha-token.js';
import { successEnvelopeWriter } from '../http/envelope.js';
import { HttpErrorCodes, HttpProblem } from '../http/http-error-codes.js';
import { hasBody, jsonBodyReader, type JsonBodyReader } from '../http/json-body.js';
import type { CmsState } from '../http/state.js';
import { Readable } from 'node:stream';
import { StreamedAnswer, type RouteDefinition } from './route-definition.js';
import { SchemaValidator } from './schema-validator.js';

/** Runs the guest-engagement checks for a guest caller; throws the outcome when refused. */
export type GuestGate = (caller: Caller) => Promise<void>;

/** Where the composition root binds the guest gate (optional until a route needs one). */
export const GuestGateToken = Symbol.for('cms/GuestGate');

export interface MountOptions {
  readonly basePath: string;
  readonly routes: readonly RouteDefinition[];
  readonly credentials: CredentialResolver;
  readonly guestGate?: GuestGate;
  readonly bodyLimitBytes: number;
}

/**
 * The routes as two middlewares: `dispatch` runs the matching route's pipeline (or passes the
 * request on), `unmatched` answers what no route took: 404, or 405 with `Allow`. Anything
 * else outside the routes (health probes) goes between the two.
 */
export interface MountedRoutes {
  readonly dispatch: Middleware<CmsState>;
  readonly unmatched: Middleware<CmsState>;
}

export function mountRoutes(options: MountOptions): MountedRoutes {
  const validator = new SchemaValidator();
  const readBody = jsonBodyReader(options.bodyLimitBytes);
  // One router per first path segment (`/forms/...`, `/articles/...`): @koa/router tries every
  // route's pattern on each request, so a request only meets the patterns of its own group.
  const groups = new Map<string, Router<CmsState>>();
  for (const route of options.routes) {
    if (route.access?.guestGate && !options.guestGate) {
      throw new Error(`route ${route.operationId} needs a guest gate, and none was provided`);
    }
    const group = groupOf(options.basePath + route.path, options.basePath)!;
    let router = groups.get(group);
    if (!router) groups.set(group, (router = new Router<CmsState>({ prefix: options.basePath })));
    router.register(route.path, [route.method], pipeline(route, options, validator, readBody));
  }
  return {
    // The router as a matcher: its own dispatch composes a middleware chain per request, which
    // one pipeline per route does not need (no two routes match one path with one method).
    dispatch: (ctx, next) => {
      const path = ctx.path;
      const match = groups.get(groupOf(path, options.basePath) ?? '')?.match(path, ctx.method);
      const layer = match?.route ? match.pathAndMethod.find((candidate) => candidate.methods.length > 0) : undefined;
      if (!layer) return next();
      ctx.params = layer.params(path, layer.captures(path));
      return (layer.stack[0] as unknown as Middleware<CmsState>)(ctx, next);
    },
    unmatched: (ctx) => {
      const matched = groups.get(groupOf(ctx.path, options.basePath) ?? '')?.match(ctx.path, ctx.method).path ?? [];
      if (matched.length === 0) throw new HttpProblem(HttpErrorCodes.ROUTE_NOT_FOUND);
      const allowed = new Set(matched.flatMap((layer) => layer.methods));
      throw new HttpProblem(HttpErrorCodes.METHOD_NOT_ALLOWED, { allow: [...allowed].join(', ') });
    },
  };
}

/**
 * The first segment after the base path, lower-cased as the router compares paths
 * (case-insensitively); undefined when the path is not under the base path.
 */
function groupOf(path: string, basePath: string): string | undefined {
  const start = basePath.length + 1;
  if (path.charCodeAt(start - 1) !== 0x2f || path.slice(0, basePath.length).toLowerCase() !== basePath.toLowerCase()) return undefined;
  const end = path.indexOf('/', start);
  return path.slice(start, end < 0 ? undefined : end).toLowerCase();
}

function pipeline(
  route: RouteDefinition,
  options: MountOptions,
  validator: SchemaValidator,
  readBody: JsonBodyReader,
): Middleware<CmsState> {
  const checkParams = route.params ? validator.compile(route.params, 'params', route.invalidParams) : undefined;
  const checkQuery = route.query ? validator.compile(route.query, 'query') : undefined;
  const checkBody = route.body ? validator.compile(route.body, 'body') : undefined;
  const access = route.access ?? {};
  const template = options.basePath + route.path;
  const writeEnvelope = successEnvelopeWriter(route.success.status, route.success.message);
  return async (ctx: Context) => {
    ctx.state.routeTemplate = template;
    ctx.state.serverErrorMessage = route.serverErrorMessage;
    const caller = await options.credentials.resolve(ctx);
    ctx.state.caller = caller;

    if (access.roles) {
      if (!caller.user?.verified) throw new DomainError(ErrorCodes.UNAUTHORIZED, 'Unauthorized');
      if (!access.roles.includes(caller.user.role)) throw new DomainError(ErrorCodes.FORBIDDEN, 'Forbidden');
    } else if (access.user && !caller.user) {
      throw new DomainError(access.user);
    }

    const params = { ...ctx.params };
    checkParams?.(params);
    if (access.guestGate && !caller.user) await options.guestGate!(caller);
    const query: Record<string, unknown> = ctx.querystring === '' ? {} : { ...ctx.query };
    delete query.captchaToken; // a credential (§1.4), never an operation input
    checkQuery?.(query);
    const body = hasBody(ctx.req.headers) ? absentIfNull(await readBody(ctx)) : undefined;
    const schemaChecksBody = route.bodyCheckedBy !== 'use-case';
    if (schemaChecksBody && (body !== undefined || route.bodyRequired !== false)) checkBody?.(body);

    const data = await route.handler({
      caller,
      params,
      query,
      body,
      header: (name) => ctx.get(name) || undefined,
      captchaToken: captchaTokenOf(ctx),
      checkBody: (value) => checkBody?.(value),
    });
    if (data instanceof StreamedAnswer) {
      ctx.status = route.success.status;
      for (const [name, value] of Object.entries(data.headers)) ctx.set(name, value);
      ctx.set('Content-Type', data.contentType);
      ctx.body = Readable.from(data.chunks, { objectMode: false });
      return;
    }
    if (route.etag !== undefined && answerTagged(ctx, route, data)) return;
    ctx.status = route.success.status;
    // Before the body (Koa would call a string body text/plain); the header `ctx.type` would
    // set, without its media-type lookup on every answer.
    ctx.set('Content-Type', JSON_CONTENT_TYPE);
    ctx.body = writeEnvelope(data ?? null);
  };
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Sets the `ETag` of the record the route answers; true when a GET's `If-None-Match` matched
 * and the answer is a bodiless 304 instead.
 */
function answerTagged(ctx: Context, route: RouteDefinition, data: unknown): boolean {
  const record = typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[route.etag!] : undefined;
  if (typeof record !== 'object' || record === null) return false;
  const tag = entityTag(record);
  ctx.set('ETag', tag);
  if (route.method !== 'GET' || !noneMatchHolds(ctx.get('if-none-match') || undefined, tag)) return false;
  ctx.status = 304;
  ctx.body = null;
  return true;
}

/** A JSON `null` body means "no body". */
const absentIfNull = (body: unknown) => (body === null ? undefined : body);
