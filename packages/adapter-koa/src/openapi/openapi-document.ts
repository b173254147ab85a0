/**
 * Builds the OpenAPI 3.1 document from the route declarations: the same JSON Schemas that
 * validate requests describe them here, so the document cannot drift from the behaviour.
 */
import type { ErrorCode } from '@cms/core';
import { ERROR_TABLE } from '../http/error-table.js';
import type { JsonSchema, RouteDefinition } from '../routing/route-definition.js';

export interface OpenApiInfo {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
  /** Absolute or relative server URL; it ends in the base path. */
  readonly serverUrl: string;
}

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
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    paths[path] ??= {};
    paths[path]![route.method.toLowerCase()] = operationOf(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, ...(info.description ? { description: info.description } : {}) },
    servers: [{ url: info.serverUrl }],
    security: [{ apiKey: [] }],
    paths,
    components: {
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
const GUEST_PARAMETERS = [
  { name: 'x-guest-id', in: 'header', required: false, schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{8,128}$' }, description: 'Guest id (callers without a user)' },
  { name: 'x-captcha-token', in: 'header', required: false, schema: { type: 'string' }, description: 'Guest CAPTCHA token (wins over the query parameter)' },
  { name: 'captchaToken', in: 'query', required: false, schema: { type: 'string' }, description: 'Guest CAPTCHA token' },
];
const GUEST_GATE_ERRORS: readonly ErrorCode[] = ['GUEST_CAPTCHA_REQUIRED', 'GUEST_ID_MISSING', 'GUEST_CAPTCHA_INVALID', 'GUEST_RATE_LIMITED'];

function operationOf(route: RouteDefinition): Record<string, unknown> {
  const access = route.access ?? {};
  const parameters = Object.entries((route.params?.properties ?? {}) as Record<string, JsonSchema>).map(([name, schema]) => ({
    name,
    in: 'path',
    required: true,
    schema,
  }));
  for (const [name, schema] of Object.entries((route.query?.properties ?? {}) as Record<string, JsonSchema>)) {
    parameters.push({ name, in: 'query', required: ((route.query?.required ?? []) as string[]).includes(name), schema });
  }
  if (access.guestGate) parameters.push(...GUEST_PARAMETERS);
  const usesBearer = Boolean(access.roles || access.readsBearer);
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: route.tags,
    ...(access.public ? { security: [] } : usesBearer ? { security: [{ apiKey: [], bearer: [] }, ...(access.roles ? [] : [{ apiKey: [] }])] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(route.body
      ? { requestBody: { required: route.bodyRequired !== false, content: { 'application/json': { schema: route.body } } } }
      : {}),
    responses: responsesOf(route),
  };
}

function responsesOf(route: RouteDefinition): Record<string, unknown> {
  const responses: Record<string, unknown> = {
    [route.success.status]: {
      description: route.success.message,
      content: { 'application/json': { schema: envelopeSchema(true, route.success.data ?? { type: 'null' }) } },
    },
  };
  const byStatus = new Map<number, Set<string>>();
  const add = (status: number, message: string) => byStatus.set(status, (byStatus.get(status) ?? new Set()).add(message));
  const access = route.access ?? {};
  if (!access.public) add(401, 'Unauthorized');
  if (access.roles) add(403, 'Forbidden');
  if (access.user) addCode(add, access.user);
  // Path parameters with their own outcome (a malformed author id is 404) never fail validation.
  if ((route.params && !route.invalidParams) || route.body || route.query) add(400, 'Validation failed: <first problem>');
  if (route.invalidParams) addCode(add, route.invalidParams);
  if (access.guestGate) for (const code of GUEST_GATE_ERRORS) addCode(add, code);
  for (const code of route.errors ?? []) addCode(add, code);
  if (route.body) add(413, ERROR_TABLE.BODY_TOO_LARGE.message!);
  add(500, route.serverErrorMessage ?? 'Server Error');
  for (const [status, messages] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[status] = {
      description: [...messages].join(' | '),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    };
  }
  return responses;
}

function addCode(add: (status: number, message: string) => void, code: ErrorCode): void {
  const outcome = ERROR_TABLE[code];
  add(outcome.status, outcome.message ?? 'Validation failed: <first problem>');
}
