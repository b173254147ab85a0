/**
 * The outermost middleware, the one layer around every request: assigns the request id (the
 * caller's when it is safe to echo) and the trace context (W3C `traceparent`, or a new trace),
 * sets the headers every answer carries, refuses a request without a valid `Host`, compresses
 * large answers, turns any failure into the envelope (`ErrorResponder`),
 * counts the request in the metrics, writes one structured line per request, and makes sure an
 * answer given before the body was read reaches the client (`settleUnreadBody`). It logs no
 * header values, tokens or bodies. One layer rather than several: each async layer is paid per
 * request.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type Logger } from '@cms/core';
import { childSpanOf, parseTraceparent } from '@cms/core/internal';
import type { Middleware } from 'koa';
import { encodeBody, encodingFor } from './compression.js';
import { settleUnreadBody, type EarlyAnswerPolicy } from './early-answers.js';
import type { ErrorResponder } from './error-response.js';
import { HttpErrorCodes, HttpProblem } from './http-error-codes.js';
import { hasBody } from './json-body.js';
import { JsonLineLogger } from './json-logger.js';
import type { ServingState } from './serving-state.js';
import { UNMATCHED_ROUTE, type ServiceMetrics } from './service-metrics.js';
import { headerRepeated, methodOf, pathOf } from './request-head.js';
import type { CmsState } from './state.js';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:@\/+=-]{1,128}$/;

/**
 * A `Host` value (RFC 9112 §3.2, RFC 3986 §3.2.2-3): a bracketed IP literal or a registered name
 * (an IPv4 address is one), then an optional `:` and port digits; empty is allowed (a target
 * without authority). Node trims the whitespace around it and refuses control characters itself.
 */
const HOST_VALUE = /^(?:\[[0-9A-Za-z\-._~!$&'()*+,;=:%]+\]|(?:[0-9A-Za-z\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*)(?::[0-9]*)?$/;

export interface EdgeOptions {
  readonly answerError: ErrorResponder;
  /** Where the one-line-per-request log goes; undefined turns it off. */
  readonly requestLogger: Logger | undefined;
  readonly earlyAnswers: EarlyAnswerPolicy;
  readonly serving: ServingState;
  readonly metrics: ServiceMetrics | undefined;
  /** The service's own log (debug lines). */
  readonly logger: Logger;
  /** Paths outside the routes that are their own route in the log line and the metrics (`/healthz`, `/cms/openapi.json`). */
  readonly fixedPaths: ReadonlySet<string>;
}

export function edgeMiddleware(options: EdgeOptions): Middleware<CmsState> {
  const { answerError, earlyAnswers, serving, metrics, fixedPaths, logger } = options;
  const logRequest = requestLineWriter(options.requestLogger);
  return async (ctx, next) => {
    const started = performance.now();
    serving.enter();
    const given = ctx.req.headers['x-request-id']; // Node joins a repeated one into one string
    const requestId = typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
    const traceparent = ctx.req.headers.traceparent;
    ctx.state.requestId = requestId;
    ctx.state.trace = childSpanOf(typeof traceparent === 'string' ? parseTraceparent(traceparent) : undefined, requestId);
    const res = ctx.res;
    res.setHeader('x-request-id', requestId);
    res.setHeader('x-content-type-options', 'nosniff');
    // Answers are per tenant and caller: no shared cache may keep them (a route may say otherwise).
    res.setHeader('cache-control', 'no-store');
    try {
      // RFC 9112 §3.2: an HTTP/1.1 request without Host is refused, and any request with two Host
      // lines or one that is no host and port. The server leaves that to this layer
      // (`requireHostHeader: false`), so the 400 is an answer like any other (decision 0830).
      const host = ctx.req.headers.host;
      if (host === undefined ? isHttp11(ctx.req) : !HOST_VALUE.test(host) || headerRepeated(ctx, 'host')) {
        throw new HttpProblem(host === undefined ? HttpErrorCodes.HOST_MISSING : HttpErrorCodes.HOST_INVALID, { connection: 'close' });
      }
      await next();
      const encoding = encodingFor(ctx);
      if (encoding) await encodeBody(ctx, encoding);
    } catch (error) {
      answerError(ctx, error);
      // An error's envelope is an answer like any other (§8: over 1 KiB, encoded). Should the
      // encoding fail, the envelope goes out as it is: the body is replaced only once encoded.
      const encoding = encodingFor(ctx);
      if (encoding) await encodeBody(ctx, encoding).catch(LEFT_AS_IT_IS);
    } finally {
      serving.leave();
      if (serving.draining) ctx.set('connection', 'close');
      // Almost every request was read to its end by now: one property read on the common path.
      // (An answer already sent was given for a client error, which settled the body itself.)
      if (!ctx.req.complete && hasBody(ctx.req.headers) && !ctx.res.headersSent) {
        const settled = settleUnreadBody(ctx.req, ctx.res, earlyAnswers);
        logger.debug?.('answered before the body was read', { requestId, traceId: ctx.state.trace.traceId, status: ctx.status, body: settled });
      }
      const durationMs = performance.now() - started;
      // A route's template, or a fixed path outside the routes (`/healthz`): the same in the log and the metrics.
      const route = ctx.state.routeTemplate ?? fixedRoute(pathOf(ctx), fixedPaths);
      const method = methodOf(ctx);
      const status = ctx.res.statusCode; // what `ctx.status` reads
      metrics?.observeRequest(method, route ?? UNMATCHED_ROUTE, status, durationMs / 1000);
      // The request's span in the line: this layer's, or the OpenTelemetry SDK's when one is registered.
      logRequest?.(method, route, status, Math.round(durationMs * 100) / 100, requestId, ctx.state.trace.traceId, ctx.state.tenantId ?? null);
    }
  };
}

const LEFT_AS_IT_IS = () => {};

type RequestLineWriter = JsonLineLogger['request'];

/**
 * How the one line per request is written: through the service's `JsonLineLogger`'s own `request`
 * (the values now, the text with the log's batch), else as `info('request', { method, route,
 * status, durationMs, requestId, traceId, tenant })`. Told apart by its class: another logger's
 * method of that name may mean something else.
 */
function requestLineWriter(logger: Logger | undefined): RequestLineWriter | undefined {
  if (logger === undefined) return undefined;
  if (logger instanceof JsonLineLogger) return logger.request.bind(logger);
  return (method, route, status, durationMs, requestId, traceId, tenant) => logger.info('request', { method, route, status, durationMs, requestId, traceId, tenant });
}

function isHttp11(req: IncomingMessage): boolean {
  return req.httpVersionMajor === 1 && req.httpVersionMinor === 1;
}

function fixedRoute(path: string, fixedPaths: ReadonlySet<string>): string | null {
  return fixedPaths.has(path) ? path : null;
}
