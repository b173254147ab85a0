#!/usr/bin/env node
/** Entry point: `npm start`. Reads the environment, starts the service, stops it on SIGTERM/SIGINT. */
import 'reflect-metadata';
import { ConfigError } from './config/env-reader.js';
import { loadConfig, type ServiceConfig } from './config/service-config.js';
import type { RunningService } from './service.js';

const say = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  let service: RunningService | undefined;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (service === undefined) {
      // Still starting (a MongoDB that is not there yet, say): nothing is served, nothing to drain.
      say(`${signal} received during start-up: stopping`);
      process.exit(0);
    }
    say(`${signal} received: finishing in-flight requests`);
    service.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        say(`shutdown failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  // Before anything starts: as a container's PID 1, a signal with no handler does nothing.
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // By default SIGHUP would kill the service undrained (logrotate's postrotate sends one).
  process.on('SIGHUP', () => say('SIGHUP received: ignored (CMS_LOG_FILE is opened for appending once; rotate it with copytruncate)'));
  const config = loadConfig(process.env);
  // Loaded after the handlers: loading the service's modules takes a second or more on a slow machine.
  const { startService } = await import('./service.js');
  service = await startService(config);
  say(`CMS service listening on ${service.url}${config.http.basePath} (storage: ${config.storage.kind})`);
  if (config.storage.kind === 'memory') {
    say('Embedded in-memory store: data lives only as long as this process. Set MONGODB_URI to keep it.');
  }
  say(bearerStatus(config));
  if (service.generatedKey) {
    say(`API key for tenant "default" (shown once): ${service.generatedKey}`);
  }
}

/** Whether bearer tokens are accepted, and how: a service without a key refuses every role-gated route. */
function bearerStatus(config: ServiceConfig): string {
  const algorithm = config.auth.jwtAlgorithm;
  if (algorithm === undefined) return 'Bearer tokens: disabled (set CMS_JWT_SECRET or CMS_JWT_PUBLIC_KEY); routes that need a role answer 401';
  return `Bearer tokens: enabled (${algorithm}, key from ${algorithm === 'HS256' ? 'CMS_JWT_SECRET' : 'CMS_JWT_PUBLIC_KEY'})`;
}

main().catch((error: unknown) => {
  const message = error instanceof ConfigError ? `Configuration error: ${error.message}` : `Start-up failed: ${String(error)}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
