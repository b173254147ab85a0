/**
 * Starts the real service (real container, real Koa app) on an ephemeral port for HTTP tests,
 * with two tenants and a JWT secret, and offers a small `fetch` client. Storage is the embedded
 * store, or the Mongo repositories over the in-process collection double (`storage: 'mongo-double'`).
 */
import { MingoDatabaseDouble } from '@cms/adapter-mongo/testing';
import { SignJWT, type JWTPayload } from 'jose';
import type { Logger } from '@cms/core';
import { loadConfig } from '../config/service-config.js';
import { startService, type RunningService, type StartOptions } from '../service.js';

export const TEST_KEYS = {
  a: 'test-key-for-tenant-a-0001',
  b: 'test-key-for-tenant-b-0002',
} as const;
export const TEST_TENANTS = { a: 'tenant-a', b: 'tenant-b' } as const;
export const TEST_JWT_SECRET = 'test-jwt-secret-with-enough-entropy-0123456789';

/** The storages an HTTP suite can run on: the embedded store, and the Mongo repositories over the double. */
export const TEST_STORAGES = ['memory', 'mongo-double'] as const;
export type TestStorage = (typeof TEST_STORAGES)[number];

export interface TestServiceOptions extends StartOptions {
  /** Default `memory`. */
  readonly storage?: TestStorage;
}

export interface CallOptions {
  /** API key; default tenant a's. `null` sends none. */
  readonly key?: string | null;
  readonly headers?: Record<string, string>;
  /** A JSON body (serialised here) … */
  readonly body?: unknown;
  /** … or the exact bytes to send, with `contentType`. */
  readonly rawBody?: string;
  readonly contentType?: string;
}

export interface CallResult<T = any> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

export interface TestService {
  readonly service: RunningService;
  readonly baseUrl: string;
  call<T = any>(method: string, path: string, options?: CallOptions): Promise<CallResult<T>>;
  /** The collection double behind the MongoDB repositories, when `storage` is `mongo-double`. */
  readonly mongoDouble: MingoDatabaseDouble | undefined;
  /** A signed HS256 token for tenant a unless `tenant` says otherwise. */
  token(claims: JWTPayload & { role?: string; tenant?: string }, options?: { expiresIn?: string; secret?: string }): Promise<string>;
  stop(): Promise<void>;
}

/** A logger that keeps every line, to assert on what the service logs. */
export class CapturingLogger implements Logger {
  readonly lines: Array<{ level: string; message: string } & Record<string, unknown>> = [];
  info(message: string, fields?: Record<string, unknown>) {
    this.lines.push({ level: 'info', message, ...fields });
  }
  warn(message: string, fields?: Record<string, unknown>) {
    this.lines.push({ level: 'warn', message, ...fields });
  }
  error(message: string, fields?: Record<string, unknown>) {
    this.lines.push({ level: 'error', message, ...fields });
  }
}

export async function startTestService(env: Record<string, string> = {}, options: TestServiceOptions = {}): Promise<TestService> {
  const { storage = 'memory', ...startOptions } = options;
  const config = loadConfig({
    PORT: '0',
    CMS_API_KEYS: `${TEST_KEYS.a}:${TEST_TENANTS.a},${TEST_KEYS.b}:${TEST_TENANTS.b}`,
    CMS_JWT_SECRET: TEST_JWT_SECRET,
    CMS_REQUEST_LOG: 'off',
    ...env,
  });
  const silent = new CapturingLogger();
  const mongoDouble = storage === 'mongo-double' ? new MingoDatabaseDouble() : undefined;
  const service = await startService(config, {
    logger: silent,
    ...(mongoDouble ? { mongoDatabase: mongoDouble } : {}),
    ...startOptions,
  });
  const baseUrl = `${service.url}${config.http.basePath}`;
  return {
    service,
    baseUrl,
    mongoDouble,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      const key = options.key === undefined ? TEST_KEYS.a : options.key;
      if (key !== null) headers['x-api-key'] = key;
      let body: string | undefined;
      if (options.rawBody !== undefined) body = options.rawBody;
      else if (options.body !== undefined) body = JSON.stringify(options.body);
      if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
      const response = await fetch(path.startsWith('http') ? path : `${baseUrl}${path}`, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: keep the text, so a test can say what came back
      }
      return { status: response.status, headers: response.headers, body: parsed as any };
    },
    async token(claims, tokenOptions = {}) {
      const { sub, ...rest } = claims;
      let jwt = new SignJWT({ tenant: TEST_TENANTS.a, ...rest }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt();
      if (sub !== undefined) jwt = jwt.setSubject(sub);
      if (tokenOptions.expiresIn) jwt = jwt.setExpirationTime(tokenOptions.expiresIn);
      return jwt.sign(new TextEncoder().encode(tokenOptions.secret ?? TEST_JWT_SECRET));
    },
    stop: () => service.stop(),
  };
}
