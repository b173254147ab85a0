// Starts what every run needs: the fake AI provider and the service in production mode on the
// embedded store, with request logging on (to a file under bench-results/), bench tenants,
// a JWT secret, and the routes it serves (read from its own OpenAPI document).
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { apiKeysSetting, BENCH_JWT_SECRET, BenchClient, benchTenants } from './bench-client.mjs';
import { referenceRoute } from './constant-envelope.mjs';
import { OPERATIONS, servedRoutes } from './operations.mjs';
import { PINNING, ROOT, startPinned, startService } from './processes.mjs';

export const RESULTS_DIR = join(ROOT, 'bench-results');

export async function startFakeProvider() {
  const provider = await startPinned({
    name: 'fake-ai-provider',
    cpu: PINNING.loadCpu,
    script: join(ROOT, 'scripts/bench/fake-ai-provider.mjs'),
    ready: /listening (\d+)/,
  });
  return { ...provider, baseUrl: `http://127.0.0.1:${provider.match[1]}/v1` };
}

/**
 * Starts one service instance. `logName` names its request log in bench-results/ (recreated);
 * `tenantCount` bench tenants get keys; `env` adds or overrides settings; `maintenance` starts it
 * with the IPC channel of service-with-maintenance.mjs (the result then has `call`).
 */
export async function startBenchService({ providerUrl, tenantCount = 4, logName = 'service-requests.log', name = 'service', nodeArgs = [], env = {}, maintenance = false }) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const logFile = join(RESULTS_DIR, logName);
  rmSync(logFile, { force: true });
  const tenants = benchTenants(tenantCount);
  const service = await startService({
    name,
    maintenance,
    // BENCH_SERVICE_NODE_ARGS: V8/Node flags for the service only (e.g. --max-semi-space-size=32), for experiments.
    nodeArgs: [...(process.env.BENCH_SERVICE_NODE_ARGS?.split(' ').filter(Boolean) ?? []), ...nodeArgs],
    env: {
      CMS_API_KEYS: apiKeysSetting(tenants),
      CMS_JWT_SECRET: BENCH_JWT_SECRET,
      // The budgets hold with the request log on; BENCH_REQUEST_LOG=off only to see what it costs.
      CMS_REQUEST_LOG: process.env.BENCH_REQUEST_LOG ?? 'true',
      CMS_LOG_FILE: logFile,
      LOG_LEVEL: 'info',
      MONGODB_URI: '',
      AI_BASE_URL: providerUrl ?? 'http://127.0.0.1:9/v1',
      AI_API_KEY: 'bench-provider-key',
      AI_MODEL: 'bench-model',
      AI_TOKEN_LIMIT_MONTHLY: '1000000000',
      CAPTCHA_PROVIDER_DEFAULT: 'none',
      ...env,
    },
  });
  const document = await (await fetch(`${service.origin}${service.basePath}/openapi.json`)).json();
  const clients = tenants.map((tenant) => new BenchClient({ origin: service.origin, basePath: service.basePath, tenant }));
  return { ...service, logFile, tenants, clients, served: servedRoutes(document) };
}

/**
 * The fake provider and a bench service seeded for the operation named `name` (`tag` keeps its
 * records apart): the requests a connection sends, and the references' route table, one row per
 * request from the service's answer. What was started is pushed onto `stoppers`.
 */
export async function seededOperation(name, tag, stoppers) {
  const provider = await startFakeProvider();
  stoppers.push(provider.stop);
  const service = await startBenchService({ providerUrl: provider.baseUrl });
  stoppers.push(service.stop);
  const operation = OPERATIONS.find((op) => op.name === name);
  const requests = [await operation.seed(service.clients[0], { user: 'bench-user', tag })].flat();
  const samples = await service.clients[0].sendSequence(requests);
  return { provider, service, requests, table: requests.map((request, i) => referenceRoute(request, samples[i])) };
}
