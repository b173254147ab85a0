/**
 * OpenTelemetry server spans, mounted only when the composition root found a registered SDK
 * (decision 0743): with none, this layer is absent and costs nothing. The span continues the
 * caller's W3C trace (through the SDK's propagator), becomes the active context for everything
 * the request does (storage and outbound spans nest under it), and replaces the edge's trace
 * context, so the request log line and outbound `traceparent`s carry the SDK's ids.
 */
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import type { Middleware } from 'koa';
import type { ErrorResponder } from './error-response.js';
import type { CmsState } from './state.js';

/** `answerError`: the edge's error envelope, applied here so the span records the status the client gets. */
export function requestTracing(tracer: Tracer, answerError: ErrorResponder): Middleware<CmsState> {
  return async (ctx, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, ctx.req.headers);
    const span = tracer.startSpan(
      ctx.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': ctx.method, 'url.path': ctx.path } },
      parent,
    );
    const { traceId, spanId, traceFlags } = span.spanContext();
    ctx.state.trace = { traceId, spanId, flags: traceFlags.toString(16).padStart(2, '0'), requestId: ctx.state.requestId };
    try {
      await context.with(trace.setSpan(parent, span), next);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      answerError(ctx, error);
    }
    finish(span, ctx.method, ctx.state.routeTemplate, ctx.status);
  };
}

function finish(span: Span, method: string, route: string | undefined, status: number): void {
  if (route) {
    span.updateName(`${method} ${route}`);
    span.setAttribute('http.route', route);
  }
  span.setAttribute('http.response.status_code', status);
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}
