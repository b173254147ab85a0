/**
 * Starts and stops the whole service: container, key bootstrap, HTTP listener, notification
 * dispatch and graceful shutdown (stop accepting, let in-flight requests and the dispatch pass in
 * progress finish, then close the store).
 */
import { createWriteStream } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerClientError, JsonLineLogger } from '@cms/adapter-koa';
import type { MongoDatabase } from '@cms/adapter-mongo';
import { CaptchaVerifierToken, ManageTenants, systemClock, type Clock, type Logger } from '@cms/core';
import type { Container } from 'inversify';
import type Koa from 'koa';
import { bootstrapKeys } from './bootstrap-keys.js';
import { BatchedLineWriter } from './logging/batched-line-writer.js';
import type { ServiceConfig } from './config/service-config.js';
import { buildContainer } from './container/build-container.js';
import { KoaAppToken } from './container/http.module.js';
import { ServerTokens, type StorageLifecycle } from './container/server-tokens.js';
import { NotificationDispatchLoop } from './notifications/notification-dispatch.loop.js';

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
  const output = options.logger ? undefined : logOutput(config);
  const logger = options.logger ?? new JsonLineLogger(output!.lines, config.logging.level);
  const requestLogger = options.requestLogger ?? (config.logging.requests ? logger : undefined);
  const container = await buildContainer(
    { config, clock: options.clock ?? systemClock, logger, requestLogger },
    { mongoDatabase: options.mongoDatabase },
  );
  options.configure?.(container);
  const storage = container.get<StorageLifecycle>(ServerTokens.Storage);
  try {
    // Built now, so each CAPTCHA provider without a secret is reported at start-up.
    container.get(CaptchaVerifierToken);
    const { generatedKey } = await bootstrapKeys(config, container.get(ManageTenants));
    const app = await container.getAsync<Koa>(KoaAppToken);
    const notifications = container.get(NotificationDispatchLoop);
    const server = createServer(app.callback());
    server.keepAliveTimeout = 65_000;
    server.on('clientError', answerClientError);
    await listen(server, config.http.port, config.http.host);
    const port = (server.address() as AddressInfo).port;
    notifications.start();
    return {
      url: `http://${config.http.host.includes(':') ? `[${config.http.host}]` : config.http.host}:${port}`,
      port,
      container,
      generatedKey,
      stop: once(async () => {
        await shutdown(server, storage, config.http.shutdownGraceMs, notifications);
        await output?.close();
      }),
    };
  } catch (error) {
    await storage.close();
    await output?.close();
    throw error;
  }
}

/** Where the service's own logs go: batched lines to CMS_LOG_FILE, else standard output. */
function logOutput(config: ServiceConfig): { lines: BatchedLineWriter; close(): Promise<void> } {
  const file = config.logging.file ? createWriteStream(config.logging.file, { flags: 'a' }) : undefined;
  const lines = new BatchedLineWriter(file ?? process.stdout);
  return {
    lines,
    close: async () => {
      lines.detach();
      if (file) await new Promise<void>((resolve) => file.end(resolve));
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

async function shutdown(server: Server, storage: StorageLifecycle, graceMs: number, notifications: NotificationDispatchLoop): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // The dispatch pass in progress finishes (its outcomes recorded) while requests drain.
  const dispatchStopped = notifications.stop();
  // Keep-alive connections that finish their request while we wait become idle; close them as
  // they do, and cut whatever is still open when the grace period ends.
  const sweeper = setInterval(() => server.closeIdleConnections(), 50);
  const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
  server.closeIdleConnections();
  await closed;
  clearInterval(sweeper);
  clearTimeout(deadline);
  await dispatchStopped;
  await storage.close();
}

function once(action: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= action());
}
