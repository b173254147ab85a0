/**
 * The outermost middleware, the one layer around every request: assigns the request id (the
 * caller's when it is safe to echo), turns any failure into the envelope (`ErrorResponder`),
 * writes one structured line per request, and makes sure an answer given before the body was
 * read reaches the client (`settleUnreadBody`). It logs no header values, tokens or bodies.
 * One layer rather than a log and an error middleware: each async layer is paid per request.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '@cms/core';
import type { Middleware } from 'koa';
import { settleUnreadBody, type EarlyAnswerPolicy } from './early-answers.js';
import type { ErrorResponder } from './error-response.js';
import { hasBody } from './json-body.js';
import type { ServingState } from './serving-state.js';
import type { CmsState } from './state.js';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:@\/+=-]{1,128}$/;

export function edgeMiddleware(
  answerError: ErrorResponder,
  requestLogger: Logger | undefined,
  earlyAnswers: EarlyAnswerPolicy,
  serving: ServingState,
): Middleware<CmsState> {
  return async (ctx, next) => {
    const started = performance.now();
    serving.enter();
    const given = ctx.get('x-request-id');
    const requestId = SAFE_REQUEST_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('x-request-id', requestId);
    try {
      await next();
    } catch (error) {
      answerError(ctx, error);
    } finally {
      serving.leave();
      if (serving.draining) ctx.set('connection', 'close');
      // Almost every request was read to its end by now: one property read on the common path.
      if (!ctx.req.complete && hasBody(ctx.req.headers)) settleUnreadBody(ctx.req, ctx.res, earlyAnswers);
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
