/**
 * The Koa application factory. Middleware order: edge (request id, trace, common headers, error
 * envelope, compression, metrics, one log line per request) → OpenTelemetry server span (when an
 * SDK is registered) → CORS (when configured) → routes
 * (which read the JSON body themselves, after credentials) → health probes, the OpenAPI document
 * and /metrics → 404/405. Routes come early because they carry the load: each middleware in
 * front of them is paid on every request. A request whose `Expect` cannot be met never reaches
 * this app: Node hands it to `expectationFailed`, the same front layers and then 417.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Tracer } from '@opentelemetry/api';
import Koa, { type Middleware } from 'koa';
import type { Logger } from '@cms/core';
import type { CredentialResolver } from '../auth/credentials.js';
import { successEnvelope, errorEnvelope } from '../http/envelope.js';
import { assertInFlightResponseVisible, clientErrorAnswerer, type ClientErrorListener } from '../http/client-error.js';
import { connectAnswerer, type ConnectListener } from '../http/connect-request.js';
import { assertLingeringCloseSupported, DEFAULT_EARLY_ANSWERS, type EarlyAnswerPolicy } from '../http/early-answers.js';
import { corsMiddleware, type CorsSettings } from '../http/cors.middleware.js';
import { edgeMiddleware } from '../http/edge.middleware.js';
import type { ServiceMetrics } from '../http/service-metrics.js';
import { errorResponder } from '../http/error-response.js';
import { HttpErrorCodes, HttpProblem, type HttpErrorCode } from '../http/http-error-codes.js';
import { requestTracing } from '../http/request-tracing.js';
import { ServingState } from '../http/serving-state.js';
import type { CmsState } from '../http/state.js';
import { ApiReference } from '../openapi/api-reference.js';
import { buildOpenApiDocument, type OpenApiInfo } from '../openapi/openapi-document.js';
import { mountRoutes } from '../routing/mount-routes.js';
import type { RouteDefinition } from '../routing/route-definition.js';

export interface AppOptions {
  /** Path prefix of every operation, e.g. `/cms`. */
  readonly basePath: string;
  readonly bodyLimitBytes: number;
  /** How answers given before the body was read are delivered; default 4 MiB drained, 1 s linger. */
  readonly earlyAnswers?: EarlyAnswerPolicy;
  readonly routes: readonly RouteDefinition[];
  readonly credentials: CredentialResolver;
  /** Errors and warnings. */
  readonly logger: Logger;
  /** Where the one-line-per-request log goes; undefined turns it off. */
  readonly requestLogger?: Logger;
  /** Storage reachable? Answers `/readyz`. */
  readonly readiness: () => Promise<boolean>;
  /** In-flight requests and the draining flag, shared with the server's shutdown; a fresh one when omitted. */
  readonly serving?: ServingState;
  /** Origins allowed to call from a browser; omitted: no CORS headers, `OPTIONS` stays 405. */
  readonly cors?: CorsSettings;
  /** Served at `GET /metrics` and fed by every request; omitted: `/metrics` is 404. */
  readonly metrics?: ServiceMetrics;
  /** The registered OpenTelemetry SDK's tracer: a server span per request. Omitted: no tracing layer at all. */
  readonly tracer?: Tracer;
  readonly openApi: Omit<OpenApiInfo, 'serverUrl'> & { readonly serverUrl?: string };
}

/**
 * The HTTP application `createApp` builds: hand `app.callback()` to a Node server's requests (and
 * its `checkContinue` event), `app.expectationFailed` to its `checkExpectation` event,
 * `app.clientError` to its `clientError` event and `app.connectRequest` to its `connect` event.
 * Create the server with `requireHostHeader: false`: the app refuses an HTTP/1.1 request without
 * `Host` itself, in the envelope (Node's own refusal is a bare 400).
 */
export type CmsApp = Koa<CmsState> & {
  /**
   * Answers a request whose `Expect` is not `100-continue` 417 `Expectation failed`, through the
   * layers every answer passes (request id, common and CORS headers, envelope, log line, metrics).
   */
  readonly expectationFailed: (req: IncomingMessage, res: ServerResponse) => void;
  /**
   * Answers what Node's HTTP server gives up on (a head too large or malformed, a client slower
   * than the headers or request timeout) in the envelope; a request being served, through its own
   * response, so that its request id, headers, log line and count are those of any answer. An
   * answer written on the socket is logged, and counted under the route `unmatched`.
   */
  readonly clientError: ClientErrorListener;
  /**
   * Answers a `CONNECT` request, which Node does not serve as a request, as one of any other
   * method this app has no route for (404 or 405), then closes the connection.
   */
  readonly connectRequest: ConnectListener;
};

export function createApp(options: AppOptions): CmsApp {
  const app = new Koa<CmsState>();
  app.silent = true;
  const openApiPath = `${options.basePath}/openapi.json`;
  const docsPath = `${options.basePath}/docs`;
  const reference = new ApiReference(docsPath, openApiPath, options.openApi.title);
  const document = JSON.stringify(
    buildOpenApiDocument({ ...options.openApi, serverUrl: options.openApi.serverUrl ?? options.basePath }, options.routes),
  );

  const routes = mountRoutes({
    basePath: options.basePath,
    routes: options.routes,
    credentials: options.credentials,
    bodyLimitBytes: options.bodyLimitBytes,
  });

  assertLingeringCloseSupported();
  assertInFlightResponseVisible();
  const earlyAnswers = options.earlyAnswers ?? DEFAULT_EARLY_ANSWERS;
  const serving = options.serving ?? new ServingState();
  const { metrics } = options;
  const answerError = errorResponder(options.logger);
  // The layers every answer passes, in this order, before anything decides what to answer.
  const front: Array<Middleware<CmsState>> = [
    edgeMiddleware({
      answerError,
      logger: options.logger,
      requestLogger: options.requestLogger,
      earlyAnswers,
      serving,
      metrics,
      fixedPaths: new Set(['/healthz', '/readyz', '/metrics', openApiPath, docsPath]),
    }),
  ];
  if (options.tracer) front.push(requestTracing(options.tracer, answerError));
  if (options.cors) front.push(corsMiddleware(options.cors));
  for (const layer of front) app.use(layer);
  app.use(routes.dispatch);
  // The probes and the metrics live outside the base path, but a client of them expects what §0
  // gives a known path under it: another method is 405, not 404 (`/metrics` only when it is on).
  const probePaths = new Set(['/healthz', '/readyz', ...(metrics ? ['/metrics'] : [])]);
  app.use(async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      // The document and the reference page are paths under the base path like the routes: another method is 405 (§0).
      if (ctx.path === openApiPath || reference.serves(ctx.path) || probePaths.has(ctx.path)) {
        throw new HttpProblem(HttpErrorCodes.METHOD_NOT_ALLOWED, { allow: 'GET, HEAD' });
      }
      return next();
    }
    if (ctx.path === '/healthz') {
      ctx.body = successEnvelope(200, 'OK', { status: 'ok' });
    } else if (ctx.path === '/readyz') {
      if (serving.draining) {
        ctx.status = 503;
        ctx.body = errorEnvelope(503, 'Service is shutting down');
        return;
      }
      const ready = await options.readiness().catch(() => false);
      ctx.status = ready ? 200 : 503;
      ctx.body = ready ? successEnvelope(200, 'OK', { status: 'ready' }) : errorEnvelope(503, 'Storage unreachable');
    } else if (ctx.path === openApiPath) {
      ctx.type = 'application/json';
      ctx.set('cache-control', 'public, max-age=300');
      ctx.body = document;
    } else if (ctx.path === docsPath || ctx.path.startsWith(`${docsPath}/`)) {
      const file = reference.file(ctx.path);
      if (!file) return next();
      ctx.type = file.type;
      // Kept by the reader's browser, never by a shared cache: §8 leaves only openapi.json to those.
      ctx.set('cache-control', 'private, max-age=300');
      ctx.body = file.body;
    } else if (ctx.path === '/metrics' && metrics) {
      ctx.type = metrics.contentType;
      ctx.body = await metrics.text();
    } else {
      return next();
    }
  });
  app.use(routes.unmatched);
  return Object.assign(app, {
    expectationFailed: refusalApp(front, HttpErrorCodes.EXPECTATION_FAILED),
    clientError: clientErrorAnswerer(earlyAnswers, options.requestLogger, metrics),
    connectRequest: connectAnswerer(app.callback(), refusalApp(front, HttpErrorCodes.ROUTE_NOT_FOUND)),
  });
}

/**
 * Node hands a request with an `Expect` other than `100-continue` to the server's
 * `checkExpectation` event, which would otherwise answer a bare 417. It is answered here by an
 * app of its own, the front layers then the refusal, so the requests of the main app pay
 * nothing for it. No route runs: the service meets no expectation but `100-continue`. A `CONNECT`
 * to an authority (`example.com:443`), which has no path to route, is refused the same way, 404.
 */
function refusalApp(front: ReadonlyArray<Middleware<CmsState>>, code: HttpErrorCode): (req: IncomingMessage, res: ServerResponse) => void {
  const refusing = new Koa<CmsState>();
  refusing.silent = true;
  for (const layer of front) refusing.use(layer);
  refusing.use(() => {
    throw new HttpProblem(code);
  });
  return refusing.callback();
}
