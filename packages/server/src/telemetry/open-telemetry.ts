/**
 * OpenTelemetry through `@opentelemetry/api` (decision 0743). A service started after an SDK was
 * registered (`node --import ./instrumentation.mjs …`) makes a server span per request (adapter-koa),
 * a span per storage call and a client span per outbound call (here, by wrapping the ports as the
 * container activates them). With no SDK registered nothing is wrapped and no layer is added, so
 * tracing costs nothing at all.
 */
import { ProxyTracerProvider, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import {
  AiUsageLedgerToken,
  ApiKeyRepositoryToken,
  ArticleRepositoryToken,
  AuthorRepositoryToken,
  CaptchaVerifierToken,
  CategoryRepositoryToken,
  CommentRepositoryToken,
  DashboardConfigRepositoryToken,
  EmailSenderToken,
  FormRepositoryToken,
  GuestRateLimiterToken,
  NotificationOutboxToken,
  PushSenderToken,
  ReactionRepositoryToken,
  RepurposeTemplateRepositoryToken,
  SubmissionRepositoryToken,
  TenantRepositoryToken,
  TranslationProviderToken,
  WebhookDeliveryOutboxToken,
  WebhookRepositoryToken,
  WebhookSenderToken,
  type TraceContext,
} from '@cms/core';
import type { Container } from 'inversify';

/** The registered SDK's tracer; undefined when no SDK is registered. */
export function registeredTracer(name = '@cms/server'): Tracer | undefined {
  const provider = trace.getTracerProvider();
  // With no SDK the global provider is the API's own proxy, which has no delegate.
  return provider instanceof ProxyTracerProvider ? provider.getDelegateTracer(name) : provider.getTracer(name);
}

const STORAGE_PORTS = [
  TenantRepositoryToken,
  ApiKeyRepositoryToken,
  DashboardConfigRepositoryToken,
  RepurposeTemplateRepositoryToken,
  NotificationOutboxToken,
  AiUsageLedgerToken,
  FormRepositoryToken,
  SubmissionRepositoryToken,
  AuthorRepositoryToken,
  CategoryRepositoryToken,
  ArticleRepositoryToken,
  CommentRepositoryToken,
  ReactionRepositoryToken,
  GuestRateLimiterToken,
  WebhookRepositoryToken,
  WebhookDeliveryOutboxToken,
];
const OUTBOUND_PORTS = [TranslationProviderToken, CaptchaVerifierToken, EmailSenderToken, PushSenderToken, WebhookSenderToken];

/** Wraps every storage and outbound port the container hands out in spans; call before the first `get`. */
export function traceContainerPorts(container: Container, tracer: Tracer, storage: string): void {
  for (const token of STORAGE_PORTS) {
    container.onActivation(token, (_, port) => tracedPort(port as object, portName(token), { tracer, kind: SpanKind.CLIENT, system: storage }));
  }
  for (const token of OUTBOUND_PORTS) {
    container.onActivation(token, (_, port) => tracedPort(port as object, portName(token), { tracer, kind: SpanKind.CLIENT, handsOnTrace: true }));
  }
}

interface SpanSettings {
  readonly tracer: Tracer;
  readonly kind: SpanKind;
  /** `db.system` of a storage port (`memory`, `mongodb`). */
  readonly system?: string;
  /**
   * An outbound port: an argument carrying the request's `trace` is handed the span's own context.
   * Never for storage, whose arguments are records to store as they are.
   */
  readonly handsOnTrace?: boolean;
}

/**
 * The port with each method call in a span `<Port>.<method>`, active while the call runs. For an
 * outbound port, an argument carrying the request's `trace` gets the span's own context instead,
 * so the adapter's `traceparent` names this client span as the parent.
 */
export function tracedPort<T extends object>(port: T, name: string, settings: SpanSettings): T {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(port, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function' || typeof key !== 'string' || key === 'constructor') return value;
      let method = wrapped.get(key);
      if (!method) {
        method = spanned(name, key, value as (...args: unknown[]) => unknown, target, settings);
        wrapped.set(key, method);
      }
      return method;
    },
  });
}

function spanned(port: string, method: string, call: (...args: unknown[]) => unknown, target: object, settings: SpanSettings) {
  const attributes = { 'cms.port': port, 'code.function.name': method, ...(settings.system ? { 'db.system': settings.system } : {}) };
  return (...args: unknown[]): unknown =>
    settings.tracer.startActiveSpan(`${port}.${method}`, { kind: settings.kind, attributes }, (span) => {
      let result: unknown;
      try {
        result = call.apply(target, settings.handsOnTrace ? withSpanTrace(args, span) : args);
      } catch (error) {
        fail(span, error);
        throw error;
      }
      if (!(result instanceof Promise)) {
        span.end();
        return result;
      }
      return result.then(
        (value) => {
          span.end();
          return value;
        },
        (error: unknown) => {
          fail(span, error);
          throw error;
        },
      );
    });
}

function withSpanTrace(args: unknown[], span: Span): unknown[] {
  if (!args.some(carriesTrace)) return args;
  const { traceId, spanId, traceFlags } = span.spanContext();
  return args.map((arg) => {
    if (!carriesTrace(arg)) return arg;
    const own: TraceContext = { traceId, spanId, flags: traceFlags.toString(16).padStart(2, '0'), ...withRequestId(arg.trace) };
    return { ...arg, trace: own };
  });
}

function carriesTrace(arg: unknown): arg is { trace: TraceContext } {
  return typeof arg === 'object' && arg !== null && Object.hasOwn(arg, 'trace') && (arg as { trace?: unknown }).trace !== undefined;
}

function withRequestId(trace: TraceContext): { requestId?: string } {
  return trace.requestId === undefined ? {} : { requestId: trace.requestId };
}

function fail(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

function portName(token: symbol): string {
  return (token.description ?? 'port').replace(/^cms\//, '');
}
