/**
 * The routes a running service declares, read from its own GET /openapi.json. The fuzz suite
 * walks this list, so a route merged later is fuzzed without anyone editing the tests.
 */
export type JsonSchema = Record<string, any>;

export interface DeclaredParameter {
  readonly name: string;
  readonly schema: JsonSchema;
  readonly required: boolean;
}

export interface DeclaredRoute {
  readonly operationId: string;
  readonly method: string;
  /** As in the document, relative to the base path: `/forms/getById/{id}`. */
  readonly path: string;
  readonly pathParams: readonly DeclaredParameter[];
  readonly queryParams: readonly DeclaredParameter[];
  readonly body: { readonly schema: JsonSchema; readonly required: boolean } | undefined;
  /** The document lists a bearer scheme for it (a role or a token-read user). */
  readonly readsBearer: boolean;
  readonly successStatus: number;
}

export function declaredRoutes(document: JsonSchema): DeclaredRoute[] {
  const routes: DeclaredRoute[] = [];
  for (const [path, item] of Object.entries<JsonSchema>(document.paths ?? {})) {
    for (const [method, operation] of Object.entries<JsonSchema>(item)) {
      const parameters: JsonSchema[] = operation.parameters ?? [];
      const of = (place: string) =>
        parameters
          .filter((p) => p.in === place)
          .map((p) => ({ name: String(p.name), schema: (p.schema ?? {}) as JsonSchema, required: Boolean(p.required) }));
      const body = operation.requestBody?.content?.['application/json']?.schema;
      const security: JsonSchema[] = operation.security ?? document.security ?? [];
      routes.push({
        operationId: String(operation.operationId ?? `${method} ${path}`),
        method: method.toUpperCase(),
        path,
        pathParams: of('path'),
        queryParams: of('query'),
        body: body ? { schema: body, required: operation.requestBody.required !== false } : undefined,
        readsBearer: security.some((entry) => 'bearer' in entry),
        successStatus: Number(Object.keys(operation.responses ?? {}).find((status) => /^2\d\d$/.test(status)) ?? 200),
      });
    }
  }
  return routes;
}

/** `/forms/getById/{id}` with each `{name}` replaced by the given (already encoded) segment. */
export function fillPath(template: string, segments: Readonly<Record<string, string>>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => segments[name] ?? 'missing');
}
