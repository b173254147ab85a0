/**
 * Dashboard JSON Schemas. Type errors are 400, but values outside the enums are replaced by
 * defaults (the normalizer's job), so `type`, `span` and `range` accept anything here, and
 * properties the seed does not list are dropped rather than refused.
 */
import { SLOT_RANGES, SLOT_SPANS, SLOT_TYPES, MAX_SLOTS } from '@cms/core';
import type { JsonSchema } from '../routing/route-definition.js';

const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });

export const dashboardConfigBodySchema: JsonSchema = {
  type: 'object',
  properties: {
    version: nullable({ type: 'number', minimum: 1 }),
    templateId: nullable({ type: 'string', minLength: 1, maxLength: 64 }),
    slots: nullable({
      type: 'array',
      maxItems: MAX_SLOTS,
      items: {
        type: 'object',
        properties: {
          id: nullable({ type: 'string', minLength: 1, maxLength: 64 }),
          type: { description: `One of ${SLOT_TYPES.join(', ')}; anything else becomes the positional default.` },
          enabled: nullable({ type: 'boolean' }),
          span: { description: `One of ${SLOT_SPANS.join(', ')}; anything else becomes the positional default.` },
          settings: nullable({
            type: 'object',
            properties: { range: { description: `One of ${SLOT_RANGES.join(', ')}; anything else becomes 2weeks.` } },
          }),
        },
      },
    }),
  },
};

export const dashboardConfigDataSchema: JsonSchema = {
  type: 'object',
  required: ['dashboardConfig'],
  properties: {
    dashboardConfig: {
      type: 'object',
      required: ['version', 'templateId', 'slots'],
      properties: {
        version: { type: 'number' },
        templateId: { type: 'string' },
        slots: {
          type: 'array',
          items: {
            type: 'object',
            required: ['id', 'type', 'enabled', 'span', 'settings'],
            properties: {
              id: { type: 'string' },
              type: { enum: [...SLOT_TYPES] },
              enabled: { type: 'boolean' },
              span: { enum: [...SLOT_SPANS] },
              settings: { type: 'object', required: ['range'], properties: { range: { enum: [...SLOT_RANGES] } } },
            },
          },
        },
      },
    },
  },
};
