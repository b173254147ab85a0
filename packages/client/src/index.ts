/**
 * @cms/client — a typed client of the CMS service. The types are generated from the service's
 * own `openapi.json` (`npm run client:generate`; a test fails when they are stale), and calls go
 * through openapi-fetch, so a path, a parameter or a body the service does not declare is a
 * compile error.
 *
 * ```ts
 * const cms = createCmsClient({ baseUrl: 'http://127.0.0.1:3000/cms', apiKey });
 * const { data, error } = await cms.PUT('/reports/dashboardConfig', { params: { header: { 'x-user-id': 'u1' } }, body: {} });
 * ```
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './generated/openapi.js';

export type { components, operations, paths } from './generated/openapi.js';
export { CmsAnswerError, listPages, type ErrorEnvelope, type ListParams, type ListPath, type ListRecords } from './list-pages.js';
export type { Article, Author, Category, Comment, Form, Submission, Webhook } from './list-pages.js';

export interface CmsClientOptions {
  /** The service's base URL including the base path, e.g. `http://127.0.0.1:3000/cms`. */
  readonly baseUrl: string;
  /** The tenant's API key, sent as `x-api-key` on every call. */
  readonly apiKey: string;
  /** A bearer token (JWT) for operations that need a role. */
  readonly bearerToken?: string;
  /** Another fetch (tests, instrumentation). */
  readonly fetch?: typeof globalThis.fetch;
}

export type CmsClient = Client<paths>;

export function createCmsClient(options: CmsClientOptions): CmsClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { 'x-api-key': options.apiKey, ...(options.bearerToken ? { authorization: `Bearer ${options.bearerToken}` } : {}) },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  client.use(notModifiedIsBodiless);
  return client;
}

/**
 * A 304 (If-None-Match matched) has no body and, rightly, no Content-Length (RFC 9110 §8.6), and
 * openapi-fetch reads a bodiless answer only for a 204 or a Content-Length of 0: it would return
 * `error: ''`, where the types promise an error envelope or nothing. The 304 is handed on marked
 * bodiless, so a call answers `{ data: undefined, error: undefined, response }` (status 304, and
 * the `ETag`, in `response`).
 */
const notModifiedIsBodiless: Middleware = {
  onResponse({ response }) {
    if (response.status !== 304 || response.headers.has('content-length')) return undefined;
    const headers = new Headers(response.headers);
    headers.set('content-length', '0');
    const bodiless = new Response(null, { status: 304, statusText: response.statusText, headers });
    Object.defineProperty(bodiless, 'url', { value: response.url });
    return bodiless;
  },
};
