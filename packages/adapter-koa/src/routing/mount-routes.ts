/**
 * Mounts declared routes (matched by `RouteMatcher`, on @koa/router). Each request runs the
 * same pipeline, whose order is the contract's: credentials → the use case's user or role rule → path params → query → body
 * (read, then checked) → handler → envelope. On guest-engagement routes the use case admits the
 * guest (CAPTCHA, guest id, rate limit) and then asks for the query and body. Unknown paths
 * are 404, known paths with another method 405 + `Allow`.
 */
import { Readable } from 'node:stream';
import { ANYONE, entityTag } from '@cms/core';
import { checkAccess, noneMatchHolds } from '@cms/core/internal';
import type { Context, Middleware } from 'koa';
import type { CredentialResolver } from '../auth/credentials.js';
import { captchaTokenOf } from '../http/captcha-token.js';
import { requestQuery, type QueryParams } from '../http/request-query.js';
import { MAX_REQUEST_TARGET, methodOf, pathOf } from '../http/request-head.js';
import { successEnvelopeWriter } from '../http/envelope.js';
import { recordJson, type KnownText } from '../http/frozen-json.js';
import { HttpErrorCodes, HttpProblem } from '../http/http-error-codes.js';
import { hasBody, jsonBodyReader, refusedContent, type JsonBodyReader } from '../http/json-body.js';
import type { InputPaths } from '../http/input-paths.js';
import type { CmsState } from '../http/state.js';
import { uncodedTags, validatorsOfNotModified } from '../http/compression.js';
import { StreamedAnswer, type RouteDefinition } from './route-definition.js';
import { RouteMatcher } from './route-matcher.js';
import { SchemaValidator } from './schema-validator.js';

export interface MountOptions {
  readonly basePath: string;
  readonly routes: readonly RouteDefinition[];
  readonly credentials: CredentialResolver;
  readonly bodyLimitBytes: number;
}

/**
 * The routes as two middlewares: `dispatch` refuses a target over `MAX_REQUEST_TARGET` (414)
 * and runs the matching route's pipeline (or passes the request on), `unmatched` answers what
 * no route took: 404, or 405 with `Allow`. Anything else outside the routes (health probes)
 * goes between the two.
 */
export interface MountedRoutes {
  readonly dispatch: Middleware<CmsState>;
  readonly unmatched: Middleware<CmsState>;
}

export function mountRoutes(options: MountOptions): MountedRoutes {
  const validator = new SchemaValidator();
  const readBody = jsonBodyReader(options.bodyLimitBytes);
  const matcher = new RouteMatcher<Middleware<CmsState>>(options.basePath);
  for (const route of options.routes) matcher.add(route.path, route.method, pipeline(route, options, validator, readBody));
  return {
    dispatch: (ctx, next) => {
      // No route takes a target this long, nor a probe: refused before any is looked for, after
      // the front layers so that a browser can read the answer (decision 0831).
      if (ctx.req.url!.length > MAX_REQUEST_TARGET) throw new HttpProblem(HttpErrorCodes.URI_TOO_LONG);
      const found = matcher.find(pathOf(ctx), methodOf(ctx));
      if (!found) return next();
      ctx.params = found.params;
      return found.handler(ctx, next);
    },
    unmatched: (ctx) => {
      const allowed = matcher.allowedMethods(pathOf(ctx));
      if (allowed.length === 0) throw new HttpProblem(HttpErrorCodes.ROUTE_NOT_FOUND);
      throw new HttpProblem(HttpErrorCodes.METHOD_NOT_ALLOWED, { allow: allowed.join(', ') });
    },
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
  const rule = route.access?.rule ?? ANYONE;
  // A guest-engagement use case admits its caller itself (the rate limit counts once), so the
  // route hands it the query and body checks to run after admission instead of before.
  const admittedByUseCase = rule.kind === 'guest-engagement';
  // Routes whose use case reads a CAPTCHA token: a guest's (engagement) or anyone's (a form's gate).
  const readsCaptchaToken = admittedByUseCase || route.access?.readsCaptchaToken === true;
  const template = options.basePath + route.path;
  const inputPaths: InputPaths = { location: route.inputFrom ?? (route.body ? 'body' : 'query'), bodyAt: route.bodyAt };
  const writeEnvelope = successEnvelopeWriter(route.success.status, route.success.message);
  const schemaChecksQuery = route.queryCheckedBy !== 'use-case';
  const queryOf = (ctx: Context): Record<string, unknown> => {
    const query = ctx.querystring === '' ? {} : operationQuery(requestQuery(ctx));
    if (schemaChecksQuery) checkQuery?.(query);
    return query;
  };
  const schemaChecksBody = route.bodyCheckedBy !== 'use-case';
  const prototypeKeys = route.dropsUnknownKeys ? 'dropped' : 'refused';
  // A route that takes no body ignores one (RFC 9110 gives a GET's or a DELETE's body no meaning):
  // it is never read, so neither its size nor its media type can be refused, and the edge drains
  // it or closes the connection as after any answer given before a body was read (decision 0812).
  const takesBody = route.body !== undefined;
  const readsBody = (ctx: Context) => takesBody && hasBody(ctx.req.headers);
  const invalidJsonAtCheck = route.invalidJsonAt === 'body-check';
  /** The body's shape check; an absent body passes where the route does not require one (a PATCH without a body is a no-op). */
  const checkShape = (body: unknown) => {
    if (body !== undefined || route.bodyRequired !== false) checkBody?.(body);
  };
  const checkBodyOf = (body: unknown) => {
    if (schemaChecksBody) checkShape(body);
  };
  /** The query and body steps, run when a guest-engagement use case asks (once). */
  const deferredBody = (ctx: Context): (() => Promise<unknown>) => {
    let read: Promise<unknown> | undefined;
    return () =>
      (read ??= (async () => {
        queryOf(ctx);
        const body = readsBody(ctx) ? absentIfNull(await readBody(ctx, prototypeKeys)) : undefined;
        checkBodyOf(body);
        return body;
      })());
  };
  return async (ctx: Context) => {
    ctx.state.routeTemplate = template;
    ctx.state.serverErrorMessage = route.serverErrorMessage;
    ctx.state.inputPaths = inputPaths;
    const caller = await options.credentials.resolve(ctx);
    ctx.state.caller = caller;
    // With the credentials it belongs to (§1.4), before a gate could call a repeated one missing.
    const captchaToken = readsCaptchaToken ? captchaTokenOf(ctx, 'refused') : undefined;
    checkAccess(caller, rule); // the use case's own rule, at the contract's place: before the id and the body

    const params = { ...ctx.params };
    checkParams?.(params);
    let query: Record<string, unknown> = NO_QUERY;
    let body: unknown;
    let unreadable: unknown; // a body that is not JSON or has a prototype key, refused at the body check
    if (!admittedByUseCase) {
      query = queryOf(ctx);
      try {
        body = readsBody(ctx) ? absentIfNull(await readBody(ctx, prototypeKeys)) : undefined;
      } catch (error) {
        if (!(invalidJsonAtCheck && refusedContent(error))) throw error;
        unreadable = error;
      }
      checkBodyOf(body);
    }
    const data = await route.handler({
      caller,
      params,
      query,
      body,
      readBody: admittedByUseCase ? deferredBody(ctx) : BODY_ALREADY_READ,
      header: (name) => ctx.get(name) || undefined,
      ifMatch: route.ifMatch ? uncodedTags(ctx.req.headers['if-match']) : undefined,
      captchaToken,
      checkBody: unreadable === undefined ? checkShape : () => { throw unreadable; },
      checkQuery: schemaChecksQuery ? NOTHING_TO_CHECK : () => checkQuery?.(query),
    });
    if (data instanceof StreamedAnswer) {
      ctx.status = route.success.status;
      for (const [name, value] of Object.entries(data.headers)) ctx.set(name, value);
      ctx.set('Content-Type', data.contentType);
      ctx.body = await wholeOrStreamed(data.chunks);
      return;
    }
    const tagged = route.etag === undefined ? undefined : answerTagged(ctx, route, data);
    if (tagged === NOT_MODIFIED) {
      validatorsOfNotModified(ctx, writeEnvelope(data ?? null));
      return;
    }
    // `ctx.response`'s own setters: `ctx.status` and `ctx.body` reach them through `delegates`,
    // a megamorphic lookup per request (decision 0790).
    const response = ctx.response;
    response.status = route.success.status;
    // Before the body (Koa would call a string body text/plain); the header `ctx.type` would
    // set, without its media-type lookup on every answer.
    ctx.res.setHeader('Content-Type', JSON_CONTENT_TYPE);
    response.body = writeEnvelope(data ?? null, tagged);
  };
}

const NO_QUERY: Record<string, unknown> = Object.freeze({});

/**
 * The query parameters an operation reads: the request's, without `captchaToken` (a credential,
 * §1.4, never an operation input). Copied only when it has to be taken out: the parse is this
 * request's own, and nothing writes to it.
 */
function operationQuery(params: QueryParams): Record<string, unknown> {
  if (params.captchaToken === undefined) return params as Record<string, unknown>;
  const query: Record<string, unknown> = { ...params };
  delete query.captchaToken;
  return query;
}

/** `checkQuery` of a route whose pipeline checked the query itself. */
const NOTHING_TO_CHECK = (): void => {};

/** `readBody` where the pipeline read the body before the handler: the handler has it as `body`. */
const BODY_ALREADY_READ = (): Promise<never> => Promise.reject(new Error('this route reads its body before the handler: use `body`'));

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

const NOT_MODIFIED = Symbol('not-modified');

/**
 * Sets the `ETag` of the record the route answers; `NOT_MODIFIED` when a GET's `If-None-Match`
 * matched and the answer is a bodiless 304 instead. Otherwise the record's JSON text when the
 * tag needed it, for the body to reuse (the body is written right after, synchronously).
 */
function answerTagged(ctx: Context, route: RouteDefinition, data: unknown): KnownText | typeof NOT_MODIFIED | undefined {
  const record = typeof data !== 'object' || data === null ? undefined : route.etag === true ? data : (data as Record<string, unknown>)[route.etag!];
  if (typeof record !== 'object' || record === null) return undefined;
  // A read's tag and text are kept with a frozen record for the next reads; a write's are not.
  const reading = route.method === 'GET';
  let text: string | undefined;
  // A record tagged as another view (a created webhook's answer, `taggedAs`) never asks for its text here.
  const tag = entityTag(record, () => (text = recordJson(record, reading)), reading);
  ctx.res.setHeader('ETag', tag);
  if (!reading || !noneMatchHolds(uncodedTags(ctx.req.headers['if-none-match'] || undefined), tag)) return text === undefined ? undefined : { value: record, text };
  ctx.status = 304;
  ctx.body = null;
  return NOT_MODIFIED;
}

/**
 * A streamed answer's text as one string when it is small (most exports: one body with its
 * length, no stream machinery, which cost a 100-row CSV four times the reference's CPU), else a
 * stream of what was read so far and the rest. Memory holds at most `WHOLE_ANSWER_CHARS` more
 * than streaming would; a failure while reading the first part is an ordinary error answer.
 */
async function wholeOrStreamed(chunks: AsyncIterable<string>): Promise<string | Readable> {
  const iterator = chunks[Symbol.asyncIterator]();
  let text = '';
  for (;;) {
    const next = await iterator.next();
    if (next.done) return text;
    text += next.value;
    if (text.length >= WHOLE_ANSWER_CHARS) return Readable.from(restOf(text, iterator), { objectMode: false });
  }
}

async function* restOf(first: string, iterator: AsyncIterator<string>): AsyncGenerator<string> {
  yield first;
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
}

const WHOLE_ANSWER_CHARS = 64 * 1024;

/** A JSON `null` body means "no body". */
const absentIfNull = (body: unknown) => (body === null ? undefined : body);
