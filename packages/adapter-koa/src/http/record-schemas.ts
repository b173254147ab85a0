/** JSON Schema pieces shared by routes over stored records: id path parameters, nullable values, timestamps. */
import { ID_PATTERN_SOURCE, NOT_BLANK_PATTERN } from '@cms/core/internal';
import type { JsonSchema } from '../routing/route-definition.js';

export const idSchema: JsonSchema = { type: 'string', pattern: ID_PATTERN_SOURCE, example: '65a1b2c3d4e5f60718293a4b' };

/** Path parameters `{<name>: <24-hex id>}`. */
export function idParamsSchema(name: string): JsonSchema {
  return { type: 'object', required: [name], properties: { [name]: idSchema } };
}

/**
 * The update body of a kind (§6.3) from its create body: the same properties and rules, none
 * required. Read-only properties stay refused (the create body does not have them).
 */
export function partialBodySchema(createBody: JsonSchema): JsonSchema {
  const { required: _required, ...partial } = createBody;
  return partial;
}

/** JSON `null` for an optional property means absent (§0). */
export function nullable(schema: JsonSchema): JsonSchema {
  return { anyOf: [schema, { type: 'null' }] };
}

/** A text of 1 to `max` characters that is not whitespace only (core checks it trimmed, `requiredText`). */
export function nonBlankText(max: number, description?: string): JsonSchema {
  return { type: 'string', minLength: 1, maxLength: max, pattern: NOT_BLANK_PATTERN, ...(description ? { description } : {}) };
}

export const timestampSchema: JsonSchema = { type: 'string', format: 'date-time', example: '2026-01-02T03:04:05.678Z' };

export const nullableString: JsonSchema = { type: ['string', 'null'] };
export const nullableId: JsonSchema = { type: ['string', 'null'], pattern: ID_PATTERN_SOURCE };
