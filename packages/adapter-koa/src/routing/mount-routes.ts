/**
 * Mounts declared routes on @koa/router. Each request runs the same pipeline, whose order is
 * the contract's: credentials → access (user, role) → path params → guest gate → query → body (read, then checked) →
 * handler → envelope. Unknown paths are 404, known paths with another method 405 + `Allow`.
 */
import Router from '@koa/router';
import { DomainError, ErrorCodes, type Caller } from '@cms/core';
import type { Context, Middleware } from 'koa';
import type { CredentialResolver } from '../auth/credentials.js';
import { captchaTokenOf } from '../http/captcha-token.js';
import { successEnvelope } from '../http/envelope.js';
import { HttpErrorCodes, HttpProblem } from '../http/http-error-codes.js';
import { jsonBodyReader, type JsonBodyReader } from '../http/json-body.js';
import type { CmsState } from '../http/state.js';
import type { RouteDefinition } from './route-definition.js';
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

export function mountRoutes(options: MountOptions): Middleware<CmsState> {
  const router = new Router<CmsState>({ prefix: options.basePath });
  const validator = new SchemaValidator();
  const readBody = jsonBodyReader(options.bodyLimitBytes);
  for (const route of options.routes) {
    if (route.access?.guestGate && !options.guestGate) {
      throw new Error(`route ${route.operationId} needs a guest gate, and none was provided`);
    }
    router.register(route.path, [route.method], pipeline(route, options, validator, readBody));
  }
  const routes = router.routes() as unknown as Middleware<CmsState>;
  return async (ctx, next) => {
    await routes(ctx, async () => {
      const match = router.match(ctx.path, ctx.method);
      if (match.path.length === 0) throw new HttpProblem(HttpErrorCodes.ROUTE_NOT_FOUND);
      const allowed = new Set(match.path.flatMap((layer) => layer.methods));
      throw new HttpProblem(HttpErrorCodes.METHOD_NOT_ALLOWED, { allow: [...allowed].join(', ') });
    });
    void next;
  };
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
    const query = { ...ctx.query };
    delete query.captchaToken; // a credential (§1.4), never an operation input
    checkQuery?.(query);
    const body = absentIfNull(await readBody(ctx));
    const schemaChecksBody = route.bodyCheckedBy !== 'use-case';
    if (schemaChecksBody && (body !== undefined || route.bodyRequired !== false)) checkBody?.(body);

    const data = await route.handler({
      caller,
      params,
      query,
      body,
      header: (name) => ctx.get(name) || undefined,
      captchaToken: captchaTokenOf(ctx),
    });
    ctx.status = route.success.status;
    ctx.body = successEnvelope(route.success.status, route.success.message, data ?? null);
  };
}

/** A JSON `null` body means "no body". */
const absentIfNull = (body: unknown) => (body === null ? undefined : body);
