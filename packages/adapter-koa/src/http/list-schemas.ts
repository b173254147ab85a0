/** JSON Schemas of the list routes (§6.1): the strict query and the page answer. */
import { PAGE_LIMITS } from '@cms/core';
import { PAGE_LIMIT_PATTERN } from '@cms/core/internal';
import type { JsonSchema } from '../routing/route-definition.js';
import { QUERY_VALUE } from '../routing/schema-validator.js';

/** `limit`, `cursor` and the list's own filters; any other query parameter is a 400. */
export function listQuerySchema(filters: Record<string, JsonSchema> = {}): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      limit: {
        type: 'string',
        pattern: PAGE_LIMIT_PATTERN,
        description: 'Page size, 1-100 (default 20)',
        example: '20',
        [QUERY_VALUE]: { type: 'integer', minimum: 1, maximum: PAGE_LIMITS.max, default: PAGE_LIMITS.default, example: PAGE_LIMITS.default },
      },
      cursor: { type: 'string', description: 'The nextCursor of the previous page of this list with the same filters' },
      ...filters,
    },
  };
}

/** `{<plural>: [record], nextCursor}`, the record schema taken from the singular answer's `data`. */
export function listDataSchema(plural: string, singularData: JsonSchema, singular: string): JsonSchema {
  const record = (singularData.properties as Record<string, JsonSchema>)[singular];
  if (!record) throw new Error(`no ${singular} in the data schema`);
  return {
    type: 'object',
    required: [plural, 'nextCursor'],
    properties: { [plural]: { type: 'array', items: record }, nextCursor: { type: ['string', 'null'] } },
  };
}

/** A `true`/`false` filter: checked as its text, documented as a boolean (decision 0833). */
export const FLAG_FILTER: JsonSchema = { type: 'string', enum: ['true', 'false'], [QUERY_VALUE]: { type: 'boolean' } };
