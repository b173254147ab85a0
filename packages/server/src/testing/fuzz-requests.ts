/**
 * Fuzz requests for one declared route, and a raw HTTP sender for them. Two families:
 * `nearValidRequests` follow the route's schemas and break them a little (the inputs that reach
 * deep into a handler); `junkRequests` send what no schema expects (malformed JSON, wrong
 * content types, odd path segments, very long ids, odd methods). Both draw credentials from a
 * mix where a valid key of tenant A dominates, so most requests get past the key check.
 */
import { request as httpRequest, Agent } from 'node:http';
import fc from 'fast-check';
import { fillPath, type DeclaredParameter, type DeclaredRoute } from './openapi-routes.js';
import { bodyText, contentTypes, junkJsonText, nearValid, schemaValue } from './schema-arbitraries.js';

export interface FuzzRequest {
  readonly method: string;
  /** Path and query, already encoded, under the base path. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

export interface FuzzContext {
  /** API keys: tenant A's (used most), tenant B's, and refused ones. */
  readonly keys: { readonly a: string; readonly b: string };
  /** `Authorization` values: the first four valid (one per role), the rest refused (expired, foreign, forged). */
  readonly bearers: readonly string[];
  /** Ids seen in successful answers so far (so path ids sometimes name real records). */
  readonly knownIds: ReadonlySet<string>;
}

const HEADER_TEXT = fc.string({ unit: 'binary-ascii', maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, ''));
const ID_LIKE = fc.stringMatching(/^[a-fA-F0-9]{24}$/);
/** `If-Match` / `If-None-Match` values: the wildcard, weak and strong tags, broken quoting, long lists. */
const ENTITY_TAG_LISTS = fc.constantFrom('*', '"x"', 'W/"x"', 'W/', '"', '"unterminated', ', ,', '*, "x"', Array.from({ length: 300 }, (_, i) => `"t${i}"`).join(', '));
/** W3C trace contexts: valid, all-zero ids (invalid), an unknown version, wrong lengths. */
const TRACEPARENTS = fc.constantFrom(
  `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`,
  `00-${'0'.repeat(32)}-${'0'.repeat(16)}-01`,
  `ff-${'a'.repeat(32)}-${'b'.repeat(16)}-01`,
  `01-${'a'.repeat(32)}-${'b'.repeat(16)}-01-extra`,
  `00-${'a'.repeat(31)}-${'b'.repeat(16)}-01`,
);

/** `arb` in `percent`% of cases, else absent. */
const sometimes = <T>(arb: fc.Arbitrary<T>, percent: number): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: 100 - percent, arbitrary: fc.constant(undefined) }, { weight: percent, arbitrary: arb });

function credentials(context: FuzzContext): fc.Arbitrary<Record<string, string>> {
  const [validTokens, badTokens] = [context.bearers.slice(0, 4), context.bearers.slice(4)];
  return fc
    .record({
      'x-api-key': fc.oneof(
        { weight: 12, arbitrary: fc.constant(context.keys.a) },
        { weight: 1, arbitrary: fc.constant(context.keys.b) },
        { weight: 1, arbitrary: fc.constantFrom(undefined, '', 'cms_not-a-key', `${context.keys.a} `, 'x'.repeat(600)) },
      ),
      'x-user-id': sometimes(
        fc.oneof({ weight: 4, arbitrary: fc.constantFrom('fuzz-user', 'u1', 'editor-7') }, { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9_.:@-]{1,128}$/) }, { weight: 1, arbitrary: HEADER_TEXT }),
        60,
      ),
      authorization: sometimes(
        fc.oneof(
          { weight: 6, arbitrary: fc.constantFrom(...validTokens) },
          { weight: 1, arbitrary: fc.constantFrom(...badTokens) },
          { weight: 1, arbitrary: fc.oneof(fc.constantFrom('Bearer', 'Bearer ', 'Bearer a.b.c', 'Basic dXNlcjpwYXNz', 'bearer x'), HEADER_TEXT.map((t) => `Bearer ${t}`)) },
        ),
        25,
      ),
      'x-guest-id': sometimes(fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{8,128}$/), HEADER_TEXT), 30),
      'x-captcha-token': sometimes(fc.oneof(fc.constantFrom('token', 'x'), HEADER_TEXT), 30),
      'x-request-id': sometimes(fc.oneof(HEADER_TEXT, fc.constant('r'.repeat(200))), 20),
      'if-match': sometimes(fc.oneof(ENTITY_TAG_LISTS, HEADER_TEXT), 15),
      'if-none-match': sometimes(fc.oneof(ENTITY_TAG_LISTS, HEADER_TEXT), 15),
      traceparent: sometimes(fc.oneof(TRACEPARENTS, HEADER_TEXT), 15),
    })
    .map((headers) => Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined)) as Record<string, string>);
}

/** A path parameter's value: per its schema, a known id, a case-changed known id, or junk. */
function paramValue(param: DeclaredParameter, context: FuzzContext): fc.Arbitrary<string> {
  const known = [...context.knownIds];
  return fc.oneof(
    { weight: 3, arbitrary: schemaValue(param.schema).map(String) },
    { weight: known.length ? 3 : 0, arbitrary: known.length ? fc.constantFrom(...known).chain((id) => fc.constantFrom(id, id.toUpperCase())) : fc.constant('') },
    { weight: 1, arbitrary: ID_LIKE },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  );
}

function queryString(params: readonly DeclaredParameter[], extra: fc.Arbitrary<Array<[string, string]>>): fc.Arbitrary<string> {
  const declared = fc.tuple(...params.map((p) => fc.option(schemaValue(p.schema).map((v) => [p.name, String(v)] as [string, string]), { nil: undefined })));
  return fc.tuple(declared, extra).map(([known, more]) => {
    const pairs = [...(known.filter(Boolean) as Array<[string, string]>), ...more];
    return pairs.length ? `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}` : '';
  });
}

const noExtraQuery = fc.constant<Array<[string, string]>>([]);

/** Requests that follow the route's schemas, broken in a place or two (or not at all). */
export function nearValidRequests(route: DeclaredRoute, basePath: string, context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const segments = fc.record(Object.fromEntries(route.pathParams.map((p) => [p.name, paramValue(p, context)]))) as fc.Arbitrary<Record<string, string>>;
  const body: fc.Arbitrary<unknown> = route.body
    ? fc.oneof({ weight: 1, arbitrary: schemaValue(route.body.schema) }, { weight: 4, arbitrary: nearValid(route.body.schema) }, { weight: 1, arbitrary: fc.constant(undefined) })
    : fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });
  return fc
    .record({ segments, query: queryString(route.queryParams, noExtraQuery), headers: credentials(context), body })
    .map(({ segments: values, query, headers, body: value }) => {
      const encoded = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, encodeURIComponent(v)]));
      const text = value === undefined ? undefined : bodyText(value);
      return {
        method: route.method,
        path: `${basePath}${fillPath(route.path, encoded)}${query}`,
        headers: text === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        body: text,
      };
    });
}

/** Raw path segments that are legal on the wire but odd: traversal, bad escapes, long ids. */
const oddSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('..', '.', '%2e%2e', '%2F', '%00', '%', '%zz', '%E0%A4%A', '%C0%AF', ';', 'null', 'undefined', '__proto__', 'constructor', '%20', '~', '*', '$where', '{id}', ':id'),
  fc.integer({ min: 25, max: 4000 }).map((n) => 'a'.repeat(n)),
  fc.integer({ min: 25, max: 200 }).map((n) => 'f'.repeat(n)),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).map(encodeURIComponent),
  ID_LIKE.map((id) => `${id}x`),
);

const junkQuery: fc.Arbitrary<Array<[string, string]>> = fc.array(
  fc.tuple(
    fc.oneof(fc.constantFrom('captchaToken', '__proto__[polluted]', 'constructor[prototype][polluted]', 'a[]', 'sort', '$where', ''), fc.string({ maxLength: 8 })),
    fc.oneof(fc.string({ maxLength: 20 }), fc.constant('x'.repeat(3000))),
  ),
  { maxLength: 4 },
);

/** Requests no schema expects. */
export function junkRequests(route: DeclaredRoute, basePath: string, context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const segments = fc.record(
    Object.fromEntries(route.pathParams.map((p) => [p.name, fc.oneof(oddSegment, paramValue(p, context).map(encodeURIComponent))])),
  ) as fc.Arbitrary<Record<string, string>>;
  return fc
    .record({
      method: fc.oneof({ weight: 5, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS') }),
      segments,
      trailer: fc.constantFrom('', '', '', '/', '//', '/extra', '?', '#frag'),
      query: queryString(route.queryParams, junkQuery),
      headers: credentials(context),
      body: fc.option(junkJsonText, { nil: undefined, freq: 4 }),
      contentType: contentTypes,
    })
    .map(({ method, segments: values, trailer, query, headers, body, contentType }) => ({
      method,
      path: `${basePath}${fillPath(route.path, values)}${trailer}${query}`,
      headers: body !== undefined && contentType !== undefined ? { ...headers, 'content-type': contentType } : headers,
      body,
    }));
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** Sends exactly what the fuzz request says (node:http, no URL normalisation). */
export function sendRaw(origin: string, request: FuzzRequest): Promise<RawResponse> {
  const url = new URL(origin);
  // An explicit length: node sends a GET or DELETE body unframed otherwise, and the server reads
  // it as the start of the next request.
  const headers = request.body === undefined ? request.headers : { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) };
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method: request.method, path: request.path, headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}

/** Renders a request for a failure message (long values cut). */
export function describeRequest(request: FuzzRequest): string {
  const cut = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}… (${s.length} chars)` : s);
  return `${request.method} ${cut(request.path)}\nheaders: ${cut(JSON.stringify(request.headers))}\nbody: ${request.body === undefined ? '(none)' : cut(request.body)}`;
}
