/**
 * Outermost middleware: assigns the request id (the caller's when it is safe to echo) and writes
 * one structured line per request. It logs no header values, tokens or bodies.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '@cms/core';
import type { Middleware } from 'koa';
import type { CmsState } from './state.js';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:@\/+=-]{1,128}$/;

export function requestLogMiddleware(logger: Logger | undefined): Middleware<CmsState> {
  return async (ctx, next) => {
    const started = performance.now();
    const given = ctx.get('x-request-id');
    const requestId = SAFE_REQUEST_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('x-request-id', requestId);
    try {
      await next();
    } finally {
      logger?.info('request', {
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
