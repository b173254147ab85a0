/** The service configuration: every setting the service reads, validated once at start-up. */
import { isIP } from 'node:net';
import { MONGO_DATABASE_NAME_RULE, mongoConnectionStringProblem, mongoDatabaseNameProblem, mongoWriteConcernProblem } from '@cms/adapter-mongo';
import { DEFAULT_LANGUAGES } from '@cms/core';
import { loadAiConfig, type AiConfig } from './ai.config.js';
import { loadApiKeys, type ApiKeySetting } from './api-keys.config.js';
import { loadAdminEmails, type AdminEmailSettings } from './admin-emails.config.js';
import { loadCaptchaConfig, type CaptchaConfig } from './captcha.config.js';
import { loadEngagementConfig, type EngagementConfig } from './engagement.config.js';
import { ConfigError, EnvReader, type Env } from './env-reader.js';
import { loadJwtConfig, type JwtAlgorithm } from './jwt.config.js';
import { loadNotifyConfig, type NotifyConfig } from './notify.config.js';
import { loadWebhooksConfig, type WebhooksConfig } from './webhooks.config.js';

export type { ApiKeySetting } from './api-keys.config.js';

export type StorageConfig =
  | { readonly kind: 'memory' }
  | { readonly kind: 'mongo'; readonly uri: string; readonly database: string };

export interface ServiceConfig {
  /** `NODE_ENV=production`: fail closed where development is lenient (unconfigured CAPTCHA providers). `development` (the default) and `test` are the other values taken. */
  readonly production: boolean;
  readonly http: {
    readonly host: string;
    readonly port: number;
    readonly basePath: string;
    readonly bodyLimitBytes: number;
    /** How long shutdown waits for in-flight requests before closing connections. */
    readonly shutdownGraceMs: number;
    /** Slow clients (CONTRACT §8): the request head, and the whole request, must arrive within these. */
    readonly headersTimeoutMs: number;
    readonly requestTimeoutMs: number;
    /** A connection with nothing read or written for this long is closed (`CMS_SOCKET_IDLE_TIMEOUT_MS`). */
    readonly stalledSocketMs: number;
    /** Answers given before the body was read: drain up to this much to keep the connection … */
    readonly drainLimitBytes: number;
    /** … else close after discarding for this long (`early-answers.ts` in adapter-koa). */
    readonly lingerMs: number;
    /** Browser origins allowed (`CMS_CORS_ORIGINS`); undefined: no CORS at all. */
    readonly corsOrigins: readonly string[] | undefined;
    /** `GET /metrics` served (`CMS_METRICS`, default on). */
    readonly metrics: boolean;
  };
  readonly auth: {
    readonly apiKeys: readonly ApiKeySetting[];
    readonly jwtSecret: string | undefined;
    readonly jwtPublicKeyPem: string | undefined;
    /** How bearer tokens are verified; undefined when neither key is set (bearer tokens are refused). */
    readonly jwtAlgorithm: JwtAlgorithm | undefined;
    /** Signs list cursors (`CMS_CURSOR_SECRET`); undefined: a random secret per process (decision 0760). */
    readonly cursorSecret?: string | undefined;
  };
  readonly storage: StorageConfig;
  /** `CMS_ADMIN_EMAILS`: admin addresses of the tenants created at start-up (embedded store only). */
  readonly adminEmails: AdminEmailSettings;
  readonly languages: readonly string[];
  readonly captcha: CaptchaConfig;
  readonly ai: AiConfig;
  readonly notify: NotifyConfig;
  readonly webhooks: WebhooksConfig;
  readonly engagement: EngagementConfig;
  readonly logging: {
    readonly level: 'debug' | 'info' | 'warn' | 'error';
    /** One line per request; off for quiet tests. */
    readonly requests: boolean;
    /** Write logs to this file instead of standard output. */
    readonly file: string | undefined;
  };
}

const LANGUAGE_CODE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;

export function loadConfig(env: Env): ServiceConfig {
  const read = new EnvReader(env);
  const jwt = loadJwtConfig(read);
  const ai = loadAiConfig(read);
  const captcha = loadCaptchaConfig(read);
  const apiKeys = loadApiKeys(read);
  const storage = loadStorageConfig(env);
  return {
    // Only the three values Node's ecosystem uses: a misspelt `Production` or `prod` would have
    // run development mode, CAPTCHA open, without a word (decision 0826).
    production: read.oneOf('NODE_ENV', ['production', 'development', 'test'] as const, 'development') === 'production',
    http: {
      host: hostOf(read.string('HOST') ?? '127.0.0.1'),
      port: read.int('PORT', 3000, 0, 65535),
      basePath: basePathOf(read.string('CMS_BASE_PATH') ?? '/cms'),
      bodyLimitBytes: bodyLimitOf(read, storage),
      shutdownGraceMs: read.int('CMS_SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
      ...clientTimeoutsOf(read),
      stalledSocketMs: stalledSocketMsOf(read, ai.provider?.timeoutMs, captcha.timeoutMs),
      drainLimitBytes: read.bytes('CMS_DRAIN_LIMIT', 4 * 1024 * 1024),
      lingerMs: read.int('CMS_LINGER_MS', 1000, 0, 30_000),
      corsOrigins: corsOriginsOf(read.list('CMS_CORS_ORIGINS')),
      metrics: read.flag('CMS_METRICS', true),
    },
    auth: {
      apiKeys,
      jwtSecret: jwt.secret,
      jwtPublicKeyPem: jwt.publicKeyPem,
      jwtAlgorithm: jwt.algorithm,
      cursorSecret: cursorSecretOf(read.raw('CMS_CURSOR_SECRET')),
    },
    storage,
    adminEmails: loadAdminEmails(read, storage.kind, apiKeys),
    languages: languagesOf(read.list('CMS_LANGUAGES')),
    captcha,
    ai,
    notify: loadNotifyConfig(read),
    webhooks: loadWebhooksConfig(read),
    engagement: loadEngagementConfig(read),
    logging: {
      level: read.oneOf('LOG_LEVEL', ['debug', 'info', 'warn', 'error'] as const, 'info'),
      requests: read.flag('CMS_REQUEST_LOG', true),
      file: read.string('CMS_LOG_FILE'),
    },
  };
}

/**
 * The storage settings alone (`MONGODB_URI`, `MONGODB_DB`): all the admin command line reads.
 * Both are checked as the driver and the server will check them, so a bad one stops start-up
 * here rather than after the wait for a server; `MONGODB_DB` is checked whenever it is set.
 */
export function loadStorageConfig(env: Env): StorageConfig {
  const read = new EnvReader(env);
  const mongoUri = read.string('MONGODB_URI');
  const mongoDb = read.string('MONGODB_DB');
  const dbProblem = mongoDb === undefined ? undefined : mongoDatabaseNameProblem(mongoDb);
  if (dbProblem !== undefined) {
    throw new ConfigError('MONGODB_DB', `${dbProblem} (got ${JSON.stringify(mongoDb)}); ${MONGO_DATABASE_NAME_RULE}`);
  }
  if (mongoUri === undefined) return { kind: 'memory' };
  // Never quoted: it may hold a password. The driver's reason is given for a copy without it.
  const uriProblem = mongoConnectionStringProblem(mongoUri);
  if (uriProblem !== undefined) {
    throw new ConfigError('MONGODB_URI', `must be a connection string such as mongodb://host:27017/cms: ${uriProblem}`);
  }
  const writeConcernProblem = mongoWriteConcernProblem(mongoUri);
  if (writeConcernProblem !== undefined) {
    throw new ConfigError('MONGODB_URI', `${writeConcernProblem}: the service answers that a write succeeded only once MongoDB has acknowledged it; leave w out (the service asks for w=majority) or set it to 1 or more`);
  }
  const uriDb = databaseOf(mongoUri);
  const uriDbProblem = uriDb === undefined ? undefined : mongoDatabaseNameProblem(uriDb);
  if (uriDbProblem !== undefined) {
    throw new ConfigError('MONGODB_URI', `names the database ${JSON.stringify(uriDb)}, which ${uriDbProblem}; ${MONGO_DATABASE_NAME_RULE}`);
  }
  return { kind: 'mongo', uri: mongoUri, database: uriDb ?? mongoDb ?? 'cms' };
}

/**
 * An IP address or a host name. Checked for its form only (whether it resolves, and to an
 * address of this machine, shows when the service listens): a dotted run of numbers that is not
 * an IPv4 address, such as 999.1.1.1, is a typo, not a host name.
 */
function hostOf(value: string): string {
  if (isIP(value) === 0 && !(value.length <= 253 && /^(?=.*[A-Za-z_-])[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.?$/.test(value))) {
    throw new ConfigError('HOST', `must be an IP address or a host name such as 0.0.0.0, :: or localhost (got "${value}")`);
  }
  return value;
}

/** Like `CMS_JWT_SECRET`, an HMAC key at least as long as its hash (32 bytes). */
function cursorSecretOf(value: string | undefined): string | undefined {
  if (value !== undefined && Buffer.byteLength(value, 'utf8') < 32) throw new ConfigError('CMS_CURSOR_SECRET', 'must be at least 32 bytes long');
  return value;
}

/** `*`, or origins as a browser sends them: scheme, host and optional port, no path. */
function corsOriginsOf(list: string[] | undefined): string[] | undefined {
  if (list === undefined) return undefined;
  // As CMS_API_KEYS and CMS_LANGUAGES: a value of nothing but commas is a mistake, not "no CORS".
  if (list.length === 0) throw new ConfigError('CMS_CORS_ORIGINS', 'holds no origin; leave it empty or unset it for none');
  // A host name, an IPv4 address, or an IPv6 literal in brackets (`http://[::1]:8080`, as browsers send it).
  const bad = list.find((origin) => origin !== '*' && !/^https?:\/\/([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/.test(origin));
  if (bad !== undefined) {
    throw new ConfigError('CMS_CORS_ORIGINS', `must be * or comma-separated origins such as https://app.example.com (got "${bad}")`);
  }
  return [...new Set(list.map((origin) => (origin === '*' ? origin : serializedOrigin(origin))))];
}

/**
 * An origin as a browser sends it in `Origin` (RFC 6454 §6.2): scheme and host in lower case, the
 * scheme's default port left out. The middleware compares strings, so `https://App.example.com`
 * or `https://app.example.com:443` in the setting would otherwise match no browser's request.
 */
function serializedOrigin(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    throw new ConfigError('CMS_CORS_ORIGINS', `must be * or comma-separated origins such as https://app.example.com (got "${origin}")`);
  }
}

/** What the largest body may be on MongoDB: a form or a submission is one document there, of 16 MiB at most. */
const MONGO_BODY_LIMIT_MAX = 8 * 1024 * 1024;

/**
 * `CMS_BODY_LIMIT`: up to 64mb on the embedded store, 8mb on MongoDB, where a form or a
 * submission made of a larger body (and what BSON adds to its JSON) could pass the 16 MiB a
 * document may hold, and every write of it would fail (decision 0832).
 */
function bodyLimitOf(read: EnvReader, storage: StorageConfig): number {
  const limit = read.bytes('CMS_BODY_LIMIT', 1024 * 1024);
  if (storage.kind === 'mongo' && limit > MONGO_BODY_LIMIT_MAX) {
    throw new ConfigError('CMS_BODY_LIMIT', `must be at most 8mb with MONGODB_URI (got ${limit} bytes): a MongoDB document holds 16 MiB at most, and a form or a submission is one`);
  }
  return limit;
}

function clientTimeoutsOf(read: EnvReader): { headersTimeoutMs: number; requestTimeoutMs: number } {
  const headersTimeoutMs = read.int('CMS_HEADERS_TIMEOUT_MS', 20_000, 100, 600_000);
  const requestTimeoutMs = read.int('CMS_REQUEST_TIMEOUT_MS', 60_000, 100, 3_600_000);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError('CMS_HEADERS_TIMEOUT_MS', `must not be longer than CMS_REQUEST_TIMEOUT_MS (${headersTimeoutMs} > ${requestTimeoutMs})`);
  }
  return { headersTimeoutMs, requestTimeoutMs };
}

/**
 * `CMS_SOCKET_IDLE_TIMEOUT_MS`: a connection on which nothing was read or written for this long
 * is closed, with the answer it was sending (a client that stopped reading a large export held
 * its memory for as long as it stayed connected). Idle keep-alive connections go sooner (65 s). A
 * request waiting on the AI or CAPTCHA provider shows no activity either, so the default outlasts
 * `AI_TIMEOUT_MS`, and a setting that does not outlast both timeouts is refused.
 */
function stalledSocketMsOf(read: EnvReader, aiTimeoutMs: number | undefined, captchaTimeoutMs: number): number {
  const waited = aiTimeoutMs ?? 0;
  const value = read.int('CMS_SOCKET_IDLE_TIMEOUT_MS', Math.max(120_000, waited + 10_000), 1000, 3_600_000);
  if (value <= waited) {
    throw new ConfigError('CMS_SOCKET_IDLE_TIMEOUT_MS', `must be longer than AI_TIMEOUT_MS (${value} <= ${waited}): a translation waiting on the provider would be cut`);
  }
  if (value <= captchaTimeoutMs) {
    throw new ConfigError('CMS_SOCKET_IDLE_TIMEOUT_MS', `must be longer than CAPTCHA_TIMEOUT_MS (${value} <= ${captchaTimeoutMs}): a request waiting on the CAPTCHA provider would be cut`);
  }
  return value;
}

function basePathOf(value: string): string {
  if (!/^\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(value)) {
    throw new ConfigError('CMS_BASE_PATH', `must be a path such as /cms, without a trailing slash (got "${value}")`);
  }
  return value;
}

function languagesOf(list: string[] | undefined): string[] {
  const languages = list ?? [...DEFAULT_LANGUAGES];
  const bad = languages.find((code) => !LANGUAGE_CODE.test(code));
  if (languages.length === 0) throw new ConfigError('CMS_LANGUAGES', 'holds no language code; leave it empty or unset it for the default (en,ar,fr,es,de)');
  if (bad !== undefined) {
    throw new ConfigError('CMS_LANGUAGES', `must be a comma-separated list of language codes such as en,fr (got "${bad}")`);
  }
  return [...new Set(languages)];
}

/**
 * The database named in the URI path (`mongodb://host/cms_prod`), if any. The hosts end at the
 * first `/` or `?`: a URI with options and no path (`mongodb://host?tlsCAFile=/etc/ca.pem`) names
 * no database, whatever its options hold.
 */
function databaseOf(uri: string): string | undefined {
  const match = /^mongodb(?:\+srv)?:\/\/[^/?]+\/([^?]+)/.exec(uri);
  return match?.[1] ? decodeURIComponent(match[1]) : undefined;
}
