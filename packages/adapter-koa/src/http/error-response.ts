/**
 * Turns every failure into the envelope (run by the edge middleware). 4xx messages come from
 * the table; a 5xx never shows anything internal, and its log line carries the request id the
 * caller received.
 */
import { isDomainError, type Logger } from '@cms/core';
import type { ParameterizedContext } from 'koa';
import { errorEnvelope } from './envelope.js';
import { DEFAULT_SERVER_ERROR_MESSAGE, ERROR_TABLE } from './error-table.js';
import { HttpProblem } from './http-error-codes.js';
import { BODY_PATHS, httpIssues } from './input-paths.js';
import type { CmsState } from './state.js';

export type ErrorResponder = (ctx: ParameterizedContext<CmsState>, error: unknown) => void;

export function errorResponder(logger: Logger): ErrorResponder {
  return (ctx, error) => {
    if (isDomainError(error)) {
      const outcome = ERROR_TABLE[error.code];
      if (outcome) {
        if (error.retryAfterSeconds !== undefined) ctx.set('retry-after', String(error.retryAfterSeconds));
        ctx.status = outcome.status;
        if (outcome.message) {
          ctx.body = errorEnvelope(outcome.status, outcome.message);
          return;
        }
        const { message, issues } = httpIssues(error, ctx.state.inputPaths ?? BODY_PATHS);
        ctx.body = errorEnvelope(outcome.status, `Validation failed: ${message}`, issues);
        return;
      }
    }
    if (error instanceof HttpProblem) {
      const outcome = ERROR_TABLE[error.code];
      ctx.set(error.headers);
      ctx.status = outcome.status;
      ctx.body = errorEnvelope(outcome.status, outcome.message ?? error.code);
      return;
    }
    logger.error('request failed', {
      requestId: ctx.state.requestId,
      traceId: ctx.state.trace?.traceId,
      route: ctx.state.routeTemplate,
      error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error),
    });
    ctx.status = 500;
    ctx.body = errorEnvelope(500, ctx.state.serverErrorMessage ?? DEFAULT_SERVER_ERROR_MESSAGE);
  };
}
