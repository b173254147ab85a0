/**
 * Builds the OpenAPI 3.1 document from the route declarations: the same JSON Schemas that
 * validate requests describe them here, so the document cannot drift from the behaviour.
 */
import { ANYONE, ErrorCodes, GUEST_ID_PATTERN, USER_ID_PATTERN, type ErrorCode } from '@cms/core';
import { ERROR_TABLE } from '../http/error-table.js';
import type { JsonSchema, RouteDefinition } from '../routing/route-definition.js';
import { LANGUAGE_CODE, QUERY_VALUE } from '../routing/schema-validator.js';
import { operationExamples, type OperationExample } from './operation-examples.js';

export interface OpenApiInfo {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
  /** Absolute or relative server URL; it ends in the base path. */
  readonly serverUrl: string;
  /** The configured language codes (CMS_LANGUAGES): language fields are documented as this enum. */
  readonly languages?: readonly string[];
}

/**
 * The `traceparent` values that continue their trace, as core's `parseTraceparent` reads them
 * (decision 0778): version 00 exactly its 55 characters; any later version of two lowercase hex
 * digits but `ff` the same layout, then the end or a `-` and fields this service ignores; trace
 * and span ids not all zero. Any other value starts a new trace.
 */
const TRACE_IDS = '-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}';
const TRACEPARENT_PATTERN = `^(?:00${TRACE_IDS}|(?!00|ff)[0-9a-f]{2}${TRACE_IDS}(?:-.*)?)$`;

/** Headers the edge reads on every operation. */
const COMMON_PARAMETERS = {
  RequestId: {
    name: 'x-request-id',
    in: 'header',
    required: false,
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:@/+=-]{1,128}$' },
    description: 'Echoed back in the answer and the log line; a new one is made when absent or unsafe',
  },
  Traceparent: {
    name: 'traceparent',
    in: 'header',
    required: false,
    schema: { type: 'string', pattern: TRACEPARENT_PATTERN },
    description:
      'W3C trace context: the request joins this trace (logged, passed on to outbound calls). Version 00, or a later one whose fields after the flags are ignored; any other value starts a new trace',
  },
} as const;

/**
 * Headers of answers, declared once and referenced from the responses that carry them: the
 * request id on every answer (the edge sets it), the entity tag on a record's answers and 304s,
 * the wait on every 429 (the error responder sets it from the limit's own figure), and the
 * content codings the body reader decodes on the 415 that refuses another one.
 */
const COMMON_HEADERS = {
  RequestId: {
    description: 'The request id: the caller’s x-request-id when it is 1-128 safe characters, else a new one; the request’s log line carries it',
    required: true,
    schema: { type: 'string' },
  },
  ETag: {
    description: 'Strong entity tag of the record answered; an answer sent gzip- or br-encoded names its coding in the tag ("…-gzip"), which If-Match and If-None-Match take as the record’s tag',
    required: true,
    schema: { type: 'string' },
  },
  RetryAfter: { description: 'Whole seconds until the limit lets the caller in again', required: true, schema: { type: 'integer', minimum: 1 } },
  AcceptEncoding: {
    description: 'On the 415 that refuses a body’s Content-Encoding: the content codings a body may be sent in (identity, the default, too)',
    required: false,
    schema: { type: 'string' },
  },
} as const;
const headerRef = (name: keyof typeof COMMON_HEADERS) => ({ $ref: `#/components/headers/${name}` });
const REQUEST_ID_HEADER = { 'x-request-id': headerRef('RequestId') };
const ETAG_HEADERS = { ETag: headerRef('ETag'), ...REQUEST_ID_HEADER };
/** The headers of an error answer of this status beside the request id. */
const ERROR_HEADERS = new Map<number, Record<string, unknown>>([
  [415, { 'Accept-Encoding': headerRef('AcceptEncoding'), ...REQUEST_ID_HEADER }],
  [429, { 'Retry-After': headerRef('RetryAfter'), ...REQUEST_ID_HEADER }],
]);

/** The user of a request without a bearer token (CONTRACT §1.3), on operations that use the caller's identity. */
const USER_PARAMETER = {
  name: 'x-user-id',
  in: 'header',
  required: false,
  schema: { type: 'string', pattern: USER_ID_PATTERN.source },
  description: 'User id when no bearer token is sent (role member)',
};

const envelopeSchema = (success: boolean, data: JsonSchema | { type: 'null' }): JsonSchema => ({
  type: 'object',
  required: ['success', 'statusCode', 'message', 'data'],
  properties: {
    success: { const: success },
    statusCode: { type: 'integer' },
    message: { type: 'string' },
    data,
    ...(success ? {} : { errors: { type: 'array', items: { $ref: '#/components/schemas/ValidationIssue' } } }),
  },
});

export function buildOpenApiDocument(info: OpenApiInfo, routes: readonly RouteDefinition[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const examples = operationExamples(info.languages);
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    paths[path] ??= {};
    const operation = withExample(operationOf(route), examples[route.operationId]);
    paths[path]![route.method.toLowerCase()] = documented(operation, info.languages);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: info.version,
      ...(info.description ? { description: info.description } : {}),
      license: { name: 'Proprietary' },
    },
    servers: [{ url: info.serverUrl }],
    security: [{ apiKey: [] }],
    paths,
    components: {
      parameters: COMMON_PARAMETERS,
      headers: COMMON_HEADERS,
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
      schemas: {
        ValidationIssue: {
          type: 'object',
          required: ['path', 'message'],
          properties: { path: { type: 'string' }, message: { type: 'string' } },
        },
        ErrorEnvelope: envelopeSchema(false, { type: 'null' }),
      },
    },
  };
}

/** What a guest sends on guest-engagement routes (§1.4), and what the guest gate can answer. */
const GUEST_ID_PARAMETER = { name: 'x-guest-id', in: 'header', required: false, schema: { type: 'string', pattern: GUEST_ID_PATTERN.source }, description: 'Guest id (callers without a user)' };
const CAPTCHA_TOKEN_HEADER = { name: 'x-captcha-token', in: 'header', required: false, schema: { type: 'string' }, description: 'CAPTCHA token (wins over the query parameter captchaToken)' };
const GUEST_PARAMETERS = [
  GUEST_ID_PARAMETER,
  CAPTCHA_TOKEN_HEADER,
  { name: 'captchaToken', in: 'query', required: false, schema: { type: 'string' }, description: 'Guest CAPTCHA token' },
];
const GUEST_GATE_ERRORS: readonly ErrorCode[] = [
  ErrorCodes.GUEST_CAPTCHA_REQUIRED,
  ErrorCodes.GUEST_ID_MISSING,
  ErrorCodes.GUEST_CAPTCHA_INVALID,
  ErrorCodes.GUEST_RATE_LIMITED,
];

/** What the route's access means for the document: all of it read from the use case's own rule. */
function accessOf(route: RouteDefinition) {
  const access = route.access ?? {};
  const rule = access.rule ?? ANYONE;
  return {
    public: access.public === true,
    readsBearer: access.readsBearer === true,
    readsGuestId: access.readsGuestId === true,
    readsCaptchaToken: access.readsCaptchaToken === true,
    roles: rule.kind === 'roles' ? rule.roles : undefined,
    user: rule.kind === 'user' ? rule.missing : undefined,
    guest: rule.kind === 'guest-engagement',
  };
}

const IF_NONE_MATCH_PARAMETER = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description: 'ETag of the copy the caller holds: 304 without a body when it is still current',
};
const IF_MATCH_PARAMETER = {
  name: 'If-Match',
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description: 'ETag of the record as last read (or *): 412 Precondition failed, and nothing changes, when it no longer matches',
};

function operationOf(route: RouteDefinition): Record<string, unknown> {
  const access = accessOf(route);
  const parameters = Object.entries((route.params?.properties ?? {}) as Record<string, JsonSchema>).map(([name, schema]) => ({
    name,
    in: 'path',
    required: true,
    schema,
  }));
  for (const [name, schema] of Object.entries((route.query?.properties ?? {}) as Record<string, JsonSchema>)) {
    parameters.push({ name, in: 'query', required: ((route.query?.required ?? []) as string[]).includes(name), schema: queryValueSchema(schema) });
  }
  if (access.guest) parameters.push(...GUEST_PARAMETERS);
  else {
    if (access.readsGuestId) parameters.push(GUEST_ID_PARAMETER);
    if (access.readsCaptchaToken) parameters.push(CAPTCHA_TOKEN_HEADER); // its query twin is in the route's query schema
  }
  if (access.user || access.readsBearer || access.guest) parameters.push(USER_PARAMETER);
  if (route.etag !== undefined && route.method === 'GET') parameters.push(IF_NONE_MATCH_PARAMETER);
  if (route.ifMatch) parameters.push(IF_MATCH_PARAMETER);
  const common = Object.keys(COMMON_PARAMETERS).map((name) => ({ $ref: `#/components/parameters/${name}` }));
  const usesBearer = Boolean(access.roles || access.readsBearer);
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: route.tags,
    ...(access.roles ? { 'x-roles': access.roles } : {}),
    ...(access.public ? { security: [] } : usesBearer ? { security: [{ apiKey: [], bearer: [] }, ...(access.roles ? [] : [{ apiKey: [] }])] } : {}),
    // The roles a bearer token needs: the use case's own declaration, for readers and tools.
    ...(access.roles ? { 'x-roles': [...access.roles] } : {}),
    parameters: [...parameters, ...common],
    ...(route.body
      ? { requestBody: { required: route.bodyRequired !== false, content: { 'application/json': { schema: route.body } } } }
      : {}),
    responses: responsesOf(route),
  };
}

/**
 * A query parameter as OpenAPI describes one: the schema of the value its text stands for
 * (decision 0833). The route checks the text (`limit` matches `^(100|[1-9][0-9]?)$`); a parameter
 * marked with `x-query-value` is declared with the value's schema (an integer from 1 to 100), its
 * description kept, so a generated client takes the value and serialises it to that text.
 */
function queryValueSchema(schema: JsonSchema): JsonSchema {
  const value = schema[QUERY_VALUE] as JsonSchema | undefined;
  if (value === undefined) return schema;
  return { ...value, ...(schema.description === undefined ? {} : { description: schema.description }) };
}

/** The operation with its example request: each parameter's `example` and the body's `example`. */
function withExample(operation: Record<string, unknown>, example: OperationExample | undefined): Record<string, unknown> {
  if (!example) return operation;
  const values: Record<string, Readonly<Record<string, string>> | undefined> = { path: example.params, query: example.query, header: example.headers };
  const parameters = (operation.parameters as Array<Record<string, unknown>>).map((parameter) => {
    const value = values[parameter.in as string]?.[parameter.name as string];
    return value === undefined ? parameter : { ...parameter, example: value };
  });
  const requestBody = operation.requestBody as { content: Record<string, Record<string, unknown>> } | undefined;
  const body =
    requestBody && example.body !== undefined
      ? { requestBody: { ...requestBody, content: { 'application/json': { ...requestBody.content['application/json'], example: example.body } } } }
      : {};
  return { ...operation, parameters, ...body };
}

function responsesOf(route: RouteDefinition): Record<string, unknown> {
  const responses: Record<string, unknown> = {
    [route.success.status]: {
      description: route.success.message,
      headers: { ...(route.etag !== undefined ? ETAG_HEADERS : REQUEST_ID_HEADER), ...route.success.headers },
      content: route.success.streamed
        ? Object.fromEntries(Object.entries(route.success.streamed).map(([type, schema]) => [type, { schema }]))
        : { 'application/json': { schema: envelopeSchema(true, route.success.data ?? { type: 'null' }) } },
    },
  };
  if (route.etag !== undefined && route.method === 'GET') responses[304] = { description: 'Not modified (If-None-Match matched)', headers: ETAG_HEADERS };
  const byStatus = new Map<number, Set<string>>();
  const add = (status: number, message: string) => byStatus.set(status, (byStatus.get(status) ?? new Set()).add(message));
  const access = accessOf(route);
  if (!access.public) add(401, 'Unauthorized');
  if (access.roles) add(403, 'Forbidden');
  if (access.user) addCode(add, access.user);
  // Path parameters with their own outcome (a malformed author id is 404), or whose schema cannot
  // refuse a path segment (a slug that cannot exist is 404 too), never fail validation. A route
  // that reads a CAPTCHA token refuses a repeated `captchaToken` (decision 0816).
  const validates = (route.params && !route.invalidParams && canRefuseSegment(route.params)) || route.body || route.query;
  if (validates || access.guest || access.readsCaptchaToken) add(400, 'Validation failed: <first problem>');
  if (route.body) add(400, ERROR_TABLE.INVALID_JSON.message!);
  if (route.invalidParams) addCode(add, route.invalidParams);
  if (access.guest) for (const code of GUEST_GATE_ERRORS) addCode(add, code);
  for (const code of route.errors ?? []) addCode(add, code);
  if (route.ifMatch) addCode(add, ErrorCodes.PRECONDITION_FAILED);
  if (route.body) {
    add(413, ERROR_TABLE.BODY_TOO_LARGE.message!);
    add(415, ERROR_TABLE.UNSUPPORTED_MEDIA_TYPE.message!);
    add(415, ERROR_TABLE.UNSUPPORTED_CHARSET.message!);
    add(415, ERROR_TABLE.UNSUPPORTED_CONTENT_ENCODING.message!);
  }
  add(500, route.serverErrorMessage ?? 'Server Error');
  for (const [status, messages] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[status] = {
      description: [...messages].join(' | '),
      headers: ERROR_HEADERS.get(status) ?? REQUEST_ID_HEADER,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    };
  }
  return responses;
}

/** Keywords a path parameter's schema may carry without refusing a segment: every segment is a string. */
const REFUSES_NOTHING = new Set(['type', 'description', 'example', 'title']);

/** Whether the path parameters' schema can refuse a segment the router matched. */
function canRefuseSegment(params: JsonSchema): boolean {
  return Object.values((params.properties ?? {}) as Record<string, JsonSchema>).some(
    (schema) => schema.type !== 'string' || Object.keys(schema).some((keyword) => !REFUSES_NOTHING.has(keyword)),
  );
}

function addCode(add: (status: number, message: string) => void, code: ErrorCode): void {
  const outcome = ERROR_TABLE[code];
  add(outcome.status, outcome.message ?? 'Validation failed: <first problem>');
}

/**
 * Names the setting a language enum comes from (decision 0834): the enum is this deployment's
 * `CMS_LANGUAGES`, so a client meant for every deployment (`@cms/client`) types the code as a string.
 */
export const ENUM_SETTING = 'x-enum-setting';

/**
 * The operation as the document shows it: a copy in which every `enum` states its `type` (code
 * generators need it) and every language-code marker is the enum of the configured languages,
 * its example one of them, named as coming from `CMS_LANGUAGES`.
 */
function documented(operation: Record<string, unknown>, languages: readonly string[] | undefined): Record<string, unknown> {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) if (key !== LANGUAGE_CODE) out[key] = walk(member);
    if ((value as Record<string, unknown>)[LANGUAGE_CODE] === true && languages) {
      out.type = 'string';
      out.enum = [...languages];
      out[ENUM_SETTING] = 'CMS_LANGUAGES';
      if (out.example !== undefined && !languages.includes(out.example as string)) out.example = languages[1] ?? languages[0];
    }
    if (Array.isArray(out.enum) && out.type === undefined) out.type = enumType(out.enum);
    return out;
  };
  return walk(operation) as Record<string, unknown>;
}

function enumType(values: readonly unknown[]): string | string[] {
  const types = [...new Set(values.map((value) => (value === null ? 'null' : Number.isInteger(value) ? 'integer' : typeof value)))];
  return types.length === 1 ? types[0]! : types;
}
