/**
 * fast-check arbitraries from JSON Schemas, for fuzzing. `schemaValue` makes values that follow
 * the schema as far as it is understood (the keywords our route schemas use); `nearValid` takes
 * such a value and breaks it in one place the way real clients and attackers do: a wrong type,
 * an extra or missing key, a huge or exotic string, a null deep inside, a prototype-pollution
 * key. Unknown keywords are ignored, so a new schema never breaks the generator, it only makes
 * its values less precise.
 */
import fc from 'fast-check';
import type { JsonSchema } from './openapi-routes.js';

const MAX_DEPTH = 6;
const LANGUAGE_KEYS = ['en', 'ar', 'fr', 'es', 'de', 'xx', 'EN', ''];

/** Values that follow `schema` (as far as this generator understands it). */
export function schemaValue(schema: JsonSchema | boolean | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (schema === undefined || schema === true || depth > MAX_DEPTH) return shallowJson();
  if (schema === false) return fc.constant(null);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const choices = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (choices?.length) return fc.oneof(...choices.map((choice) => schemaValue(choice, depth + 1)));
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [schema.type as string] : inferTypes(schema);
  if (types.length === 0) return shallowJson();
  return fc.oneof(...types.map((type) => ofType(type, schema, depth)));
}

function inferTypes(schema: JsonSchema): string[] {
  if (schema.properties || schema.additionalProperties || schema.propertyNames) return ['object'];
  if (schema.items) return ['array'];
  if (schema.pattern || schema.minLength !== undefined || schema.format) return ['string'];
  return [];
}

function ofType(type: string, schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schemaValue(schema.items as JsonSchema | undefined, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, Math.max(schema.minItems ?? 0, 4)),
      });
    case 'object':
      return objectFor(schema, depth);
    default:
      return shallowJson();
  }
}

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 40, Math.max(minLength, 40));
  if (typeof schema.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity));
    } catch {
      // a pattern JavaScript cannot compile: fall through to plain strings
    }
  }
  switch (schema.format) {
    case 'date-time':
      return fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString());
    case 'date':
      return fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    case 'email':
      return fc.emailAddress();
    case 'uri':
    case 'url':
      return fc.webUrl();
    default:
      return fc.string({ minLength, maxLength });
  }
}

function objectFor(schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = ((schema.required ?? []) as string[]).filter((key) => key in properties);
  const known = fc.record(
    Object.fromEntries(Object.entries(properties).map(([key, sub]) => [key, schemaValue(sub, depth + 1)])),
    { requiredKeys: required },
  );
  const extra = schema.additionalProperties;
  if (extra && typeof extra === 'object') {
    // a map such as a multilingual text: keys from propertyNames, values from the schema
    const names = schema.propertyNames as JsonSchema | undefined;
    const key = names?.enum ? fc.constantFrom(...(names.enum as string[])) : names?.pattern ? stringFor(names) : fc.constantFrom(...LANGUAGE_KEYS);
    const map = fc.dictionary(key, schemaValue(extra as JsonSchema, depth + 1), { minKeys: schema.minProperties ?? 0, maxKeys: 4 });
    return fc.tuple(known, map).map(([a, b]) => ({ ...b, ...(a as object) }));
  }
  return known;
}

const shallowJson = () => fc.jsonValue({ maxDepth: 2 });

/** What a mutation does to the node it lands on. */
type Mutation =
  | { kind: 'wrongType'; value: unknown }
  | { kind: 'extraKey'; key: string; value: unknown }
  | { kind: 'dropKey' }
  | { kind: 'null' }
  | { kind: 'hugeString'; length: number }
  | { kind: 'exoticString'; value: string }
  | { kind: 'edgeNumber'; value: number }
  | { kind: 'pollute'; key: '__proto__' | 'constructor' | 'prototype' }
  | { kind: 'deep'; shape: DeepShape; depth: number };

/** Nesting a value may carry: arrays, objects, or arrays beside a `__proto__` key. */
type DeepShape = 'array' | 'object' | 'proto';

/**
 * A deep value stands in the generated value as this marker, and `bodyText` writes it out:
 * `JSON.stringify` itself recurses per level and could not write it.
 */
const DEEP_MARK = '\u0001deep:';
const DEEP_MARK_TEXT = /"\\u0001deep:(array|object|proto):(\d+)"/g;

function deepText(shape: DeepShape, depth: number): string {
  const arrays = `${'['.repeat(depth)}${']'.repeat(depth)}`;
  if (shape === 'array') return arrays;
  if (shape === 'proto') return `{"__proto__":{},"z":${arrays}}`;
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** The JSON text of a generated body, its deep values (`deep` mutations) written out. */
export function bodyText(value: unknown): string {
  return JSON.stringify(value).replace(DEEP_MARK_TEXT, (_, shape: DeepShape, depth: string) => deepText(shape, Number(depth)));
}

const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('wrongType' as const), value: fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 }), fc.constant({})) }),
  fc.record({ kind: fc.constant('extraKey' as const), key: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('id', 'tenantId', '$where', '$set', 'a.b')), value: shallowJson() }),
  fc.record({ kind: fc.constant('dropKey' as const) }),
  fc.record({ kind: fc.constant('null' as const) }),
  fc.record({ kind: fc.constant('hugeString' as const), length: fc.constantFrom(5_001, 20_001, 200_000) }),
  fc.record({ kind: fc.constant('exoticString' as const), value: fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }), fc.constantFrom('\u0000', '\ud800', '‮', 'ǅ', '💥'.repeat(50), ' ', '\n\t')) }),
  fc.record({ kind: fc.constant('edgeNumber' as const), value: fc.constantFrom(-0, -1, 0.5, 1e308, -1e308, 2 ** 53 + 2, Number.MIN_VALUE) }),
  fc.record({ kind: fc.constantFrom(...(['pollute'] as const)), key: fc.constantFrom(...POLLUTION_KEYS) }),
  fc.record({ kind: fc.constant('deep' as const), shape: fc.constantFrom<DeepShape>('array', 'object', 'proto'), depth: fc.constantFrom(1_000, 20_000) }),
);

/**
 * A value of `schema` broken in 1-2 places. `at` picks the place: the n-th node of the value in
 * depth-first order (modulo the node count), so shrinking moves the break towards the root.
 */
export function nearValid(schema: JsonSchema): fc.Arbitrary<unknown> {
  return fc
    .tuple(schemaValue(schema), fc.array(fc.tuple(fc.nat(), mutation), { minLength: 1, maxLength: 2 }))
    .map(([value, breaks]) => breaks.reduce<unknown>((current, [at, change]) => mutate(current, at, change), value));
}

function mutate(root: unknown, at: number, change: Mutation): unknown {
  const copy = structuredClone(root);
  const nodes: Array<{ parent: any; key: string | number | undefined; value: unknown }> = [];
  const walk = (parent: any, key: string | number | undefined, value: unknown) => {
    nodes.push({ parent, key, value });
    if (Array.isArray(value)) value.forEach((item, i) => walk(value, i, item));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(value, k, v);
  };
  walk(undefined, undefined, copy);
  const node = nodes[at % nodes.length]!;
  const replace = (next: unknown) => {
    if (node.parent === undefined) return next;
    node.parent[node.key!] = next;
    return copy;
  };
  switch (change.kind) {
    case 'wrongType':
      return replace(typeof node.value === typeof change.value ? [change.value] : change.value);
    case 'null':
      return replace(null);
    case 'hugeString':
      return replace('x'.repeat(change.length));
    case 'exoticString':
      return replace(change.value);
    case 'edgeNumber':
      return replace(change.value);
    case 'deep':
      return replace(`${DEEP_MARK}${change.shape}:${change.depth}`);
    case 'dropKey':
      if (node.parent && !Array.isArray(node.parent)) delete node.parent[node.key!];
      return node.parent === undefined ? undefined : copy;
    case 'extraKey':
    case 'pollute': {
      const target = node.value && typeof node.value === 'object' && !Array.isArray(node.value) ? (node.value as Record<string, unknown>) : undefined;
      if (!target) return replace({ [change.kind === 'pollute' ? 'polluted' : change.key]: true });
      const key = change.kind === 'pollute' ? change.key : change.key;
      const value = change.kind === 'pollute' ? { polluted: true, isAdmin: true } : change.value;
      // An own, enumerable `__proto__` key, as JSON.parse makes it, so it reaches the wire.
      Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
      return copy;
    }
  }
}

/** Text that is not a JSON document, or a JSON document of the wrong shape. */
export const junkJsonText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('{', '{"a":', '[1,2', '"unterminated', 'nul', 'undefined', '{"a":1}}', "{'a':1}", '{"a":1,}', 'NaN', '\u0000', '\ufeff{}', '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}'),
  fc.constantFrom('[]', '0', '-1', '"text"', 'true', 'null', '[{}]', '1e400'),
  fc.integer({ min: 1, max: 3000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.integer({ min: 1, max: 3000 }).map((depth) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
  // A prototype key beside deep nesting: a route that drops such keys walks the whole body.
  fc.integer({ min: 1, max: 30_000 }).map((depth) => `{"__proto__":{},"z":${'['.repeat(depth)}${']'.repeat(depth)}}`),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
);

/** Content types a client might send with a body. */
export const contentTypes: fc.Arbitrary<string | undefined> = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/vnd.api+json',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  'application/json, text/plain',
  '*/*',
  'json',
  undefined,
);
