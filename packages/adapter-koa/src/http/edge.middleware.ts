/**
 * The outermost middleware, the one layer around every request: assigns the request id (the
 * caller's when it is safe to echo), turns any failure into the envelope (`ErrorResponder`),
 * and writes one structured line per request. It logs no header values, tokens or bodies.
 * One layer rather than a log and an error middleware: each async layer is paid per request.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '@cms/core';
import type { Middleware } from 'koa';
import type { ErrorResponder } from './error-response.js';
import type { CmsState } from './state.js';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:@\/+=-]{1,128}$/;

export function edgeMiddleware(answerError: ErrorResponder, requestLogger: Logger | undefined): Middleware<CmsState> {
  return async (ctx, next) => {
    const started = performance.now();
    const given = ctx.get('x-request-id');
    const requestId = SAFE_REQUEST_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('x-request-id', requestId);
    try {
      await next();
    } catch (error) {
      answerError(ctx, error);
    } finally {
      requestLogger?.info('request', {
        method: ctx.method,
        route: ctx.state.routeTemplate ?? null,
        status: ctx.status,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        requestId,
        tenant: ctx.state.tenantId ?? null,
      });
    }
  };
}
