/**
 * Starts and stops the whole service: container, key bootstrap, HTTP listener, notification
 * dispatch and graceful shutdown (drain: /readyz 503 while in-flight requests finish; then stop
 * accepting, let the dispatch pass in progress, the sends in flight and the requests' background
 * work finish, and close the store).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JsonLineLogger, ServingState, type CmsApp } from '@cms/adapter-koa';
import type { MongoDatabase } from '@cms/adapter-mongo';
import {
  CaptchaVerifierToken,
  DispatchLoop,
  DispatchNotifications,
  DispatchWebhooks,
  ManageTenants,
  NotificationOutboxToken,
  systemClock,
  TrackedWork,
  WebhookDeliveryOutboxToken,
  type Clock,
  type Logger,
  type NotificationOutbox,
  type WebhookDeliveryOutbox,
} from '@cms/core';
import type { Container } from 'inversify';
import { bootstrapKeys } from './bootstrap-keys.js';
import { ConfigError } from './config/env-reader.js';
import type { ServiceConfig } from './config/service-config.js';
import { openLogOutput } from './logging/log-output.js';
import { buildContainer } from './container/build-container.js';
import { KoaAppToken } from './container/http.module.js';
import { ServerTokens, type StorageLifecycle } from './container/server-tokens.js';
import { WebhookDispatchLoopToken } from './container/webhooks.module.js';

export interface StartOptions {
  readonly clock?: Clock;
  /** Overrides where logs go (tests pass a silent or capturing logger). */
  readonly logger?: Logger;
  readonly requestLogger?: Logger;
  /** Last word on the bindings before the app is built (tests rebind ports here). */
  readonly configure?: (container: Container) => void;
  /** Mongo repositories over this database, whatever `config.storage` says (tests pass the collection double). */
  readonly mongoDatabase?: MongoDatabase;
}

export interface RunningService {
  readonly url: string;
  readonly port: number;
  readonly container: Container;
  readonly generatedKey: string | undefined;
  stop(): Promise<void>;
}

export async function startService(config: ServiceConfig, options: StartOptions = {}): Promise<RunningService> {
  // First, so a log file that cannot be opened stops start-up before anything else is opened.
  const output = options.logger ? undefined : await openLogOutput(config.logging.file);
  const logger = options.logger ?? new JsonLineLogger(output!.lines, config.logging.level);
  const requestLogger = options.requestLogger ?? (config.logging.requests ? logger : undefined);
  const container = await buildContainer(
    { config, clock: options.clock ?? systemClock, logger, requestLogger },
    { mongoDatabase: options.mongoDatabase },
  ).catch(async (error: unknown) => {
    // MongoDB unreachable, say: the log file opened above is closed, not left to the process.
    await output?.close();
    throw error;
  });
  options.configure?.(container);
  const storage = container.get<StorageLifecycle>(ServerTokens.Storage);
  try {
    // Built now, so each CAPTCHA provider without a secret is reported at start-up.
    container.get(CaptchaVerifierToken);
    const { generatedKey } = await bootstrapKeys(config, container.get(ManageTenants), logger);
    const app = await container.getAsync<CmsApp>(KoaAppToken);
    const dispatchLoops = [container.get(DispatchLoop), container.get<DispatchLoop>(WebhookDispatchLoopToken)];
    const serving = container.get(ServingState);
    const handle = app.callback();
    const server = createServer(
      {
        headersTimeout: config.http.headersTimeoutMs,
        requestTimeout: config.http.requestTimeoutMs,
        // Node checks both timeouts on this interval: a slow client is cut within one interval of its deadline.
        connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(config.http.headersTimeoutMs / 4))),
        // Longer than the 60 s idle timeout of common load balancers (AWS ALB, nginx's upstream
        // keep-alive), so the balancer, not the service, closes an idle connection: a close racing
        // the balancer's next request on it would reach its client as a 502.
        keepAliveTimeout: 65_000,
        // An HTTP/1.1 request without Host is refused by the app's edge, in the envelope with a
        // request id and a log line, instead of by Node with a bare 400 (decision 0802).
        requireHostHeader: false,
      },
      handle,
    );
    // A socket with nothing read or written for this long is destroyed (no 'timeout' listener):
    // a client that stopped reading an answer lets go of what the answer held.
    server.setTimeout(config.http.stalledSocketMs);
    server.on('clientError', app.clientError);
    // With a listener here Node sends no `100 Continue` by itself: the body step sends it, so a
    // request refused before that step gets its final status instead (RFC 9110 §10.1.1).
    server.on('checkContinue', handle);
    // Any other expectation: 417 in the envelope, instead of Node's bare one (decision 0776).
    server.on('checkExpectation', app.expectationFailed);
    // CONNECT: Node would close the connection without a word; the app answers it (decision 0828).
    server.on('connect', app.connectRequest);
    await listen(server, config.http.port, config.http.host);
    const port = (server.address() as AddressInfo).port;
    for (const loop of dispatchLoops) loop.start();
    const url = `http://${config.http.host.includes(':') ? `[${config.http.host}]` : config.http.host}:${port}`;
    // The log's own record of the service's life, beside the lines main.ts writes to a terminal.
    logger.info('service started', { url: `${url}${config.http.basePath}`, storage: storage.kind, production: config.production });
    return {
      url,
      port,
      container,
      generatedKey,
      stop: once(async () => {
        logger.info('service stopping: in-flight requests finish, /readyz answers 503', { inFlight: serving.inFlight, graceMs: config.http.shutdownGraceMs });
        const lastPass = storage.kind === 'memory' ? () => lastPassOnEmbeddedStore(container, logger) : undefined;
        await shutdown(server, serving, storage, config.http.shutdownGraceMs, dispatchLoops, container.get(TrackedWork), lastPass, logger);
        logger.info('service stopped');
        await output?.close();
      }),
    };
  } catch (error) {
    await storage.close();
    await output?.close();
    throw error;
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException) => reject(listenRefusal(error, host, port));
    server.once('error', refused);
    server.listen(port, host, () => {
      server.off('error', refused);
      resolve();
    });
  });
}

/** A listen failure named by the setting to change: HOST for an address this machine cannot take, PORT for a port it cannot have. */
function listenRefusal(error: NodeJS.ErrnoException, host: string, port: number): ConfigError {
  const why = `(${error.message})`;
  switch (error.code) {
    case 'EADDRINUSE':
      return new ConfigError('PORT', `${port} is already in use on ${host} ${why}`);
    case 'EACCES':
      return new ConfigError('PORT', `${port} on ${host} needs privileges this process lacks ${why}`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return new ConfigError('HOST', `${host} does not resolve to an address to listen on ${why}`);
    case 'EADDRNOTAVAIL':
    case 'EAFNOSUPPORT':
      return new ConfigError('HOST', `${host} is not an address of this machine ${why}`);
    default:
      return new ConfigError('HOST', `${host} with PORT ${port} cannot be listened on ${why}`);
  }
}

async function shutdown(
  server: Server,
  serving: ServingState,
  storage: StorageLifecycle,
  graceMs: number,
  dispatchLoops: readonly DispatchLoop[],
  work: TrackedWork,
  lastPass: (() => Promise<void>) | undefined,
  logger: Logger,
): Promise<void> {
  const deadline = Date.now() + graceMs;
  // Still listening while in-flight requests finish: /readyz now answers 503 to whoever asks
  // (a load balancer stops sending), and every answer closes its connection.
  serving.beginDrain();
  await atMost(serving.whenIdle(), graceMs);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // The dispatch pass in progress and every send in flight finish (outcomes recorded) while requests drain.
  const dispatchStopped = Promise.all(dispatchLoops.map((loop) => loop.stop()));
  // Keep-alive connections that finish their request while we wait become idle; close them as
  // they do, and cut whatever is still open when the grace period ends.
  const sweeper = setInterval(() => server.closeIdleConnections(), 50);
  const cut = setTimeout(() => {
    // Said, so a drain that dropped requests is not taken for a clean one (their clients saw a reset).
    if (serving.inFlight > 0) logger.warn('grace period over: requests still in flight were cut', { requests: serving.inFlight, graceMs });
    server.closeAllConnections();
  }, Math.max(0, deadline - Date.now()));
  server.closeIdleConnections();
  await closed;
  clearInterval(sweeper);
  clearTimeout(cut);
  await dispatchStopped;
  // What the served requests started and did not await (a submit's notification enqueue) writes
  // to the store: it finishes first, within what is left of the grace period.
  await atMost(work.settled(), deadline - Date.now());
  if (lastPass) await atMost(lastPass(), deadline - Date.now());
  await storage.close();
}

/**
 * The embedded store keeps nothing after the process: one last pass of each dispatcher sends what
 * is due (a submit's notifications, an event's deliveries, answered just before the stop), and a
 * warning names what still goes unsent (retries waiting for their back-off, a pass cut short by
 * the grace period). On MongoDB the next process sends them.
 */
async function lastPassOnEmbeddedStore(container: Container, logger: Logger): Promise<void> {
  // A pass that fails stops nothing: the stop goes on, and the warning below still counts.
  const passes = [container.get(DispatchNotifications).execute(), container.get(DispatchWebhooks).execute()];
  for (const failed of (await Promise.allSettled(passes)).filter((pass) => pass.status === 'rejected')) {
    logger.error('last dispatch pass before the stop failed', { error: String((failed as PromiseRejectedResult).reason) });
  }
  const jobs = await container.get<NotificationOutbox>(NotificationOutboxToken).countByStatus();
  const deliveries = await container.get<WebhookDeliveryOutbox>(WebhookDeliveryOutboxToken).countByStatus();
  const notificationJobs = jobs.pending;
  const webhookDeliveries = deliveries.pending + deliveries.unconfirmed;
  if (notificationJobs + webhookDeliveries > 0) {
    logger.warn('stopping with notifications or webhook deliveries not sent: the embedded store keeps nothing after this process', { notificationJobs, webhookDeliveries });
  }
}

/** Waits for `promise` to settle, or `ms` at most. */
async function atMost(promise: Promise<unknown>, ms: number): Promise<void> {
  let over: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (over = setTimeout(resolve, Math.max(0, ms))))]);
  clearTimeout(over);
}

function once(action: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= action());
}
