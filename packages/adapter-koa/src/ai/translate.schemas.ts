/**
 * POST /ai/translate JSON Schemas: the strict body and the answer. Which languages a tenant
 * has is checked by the use case (it depends on the tenant); the schema checks the shape.
 */
import { TRANSLATION_TEXT_MAX } from '@cms/core';
import { nonBlankText } from '../http/record-schemas.js';
import type { JsonSchema } from '../routing/route-definition.js';
import { LANGUAGE_CODE } from '../routing/schema-validator.js';

const languageCode = { type: 'string', [LANGUAGE_CODE]: true, minLength: 1, maxLength: 35, description: 'A language configured for the tenant (CMS_LANGUAGES)', example: 'fr' };

export const translateBodySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['text', 'targetLanguage'],
  properties: {
    text: { ...nonBlankText(TRANSLATION_TEXT_MAX, 'Non-blank text to translate'), example: 'Hello, world' },
    targetLanguage: languageCode,
    sourceLanguage: {
      anyOf: [{ ...languageCode, example: 'en' }, { type: 'null' }],
      description: 'The language of the text; absent or null: detected by the provider',
    },
  },
};

const tokenCount = { type: 'integer', minimum: 0 };

export const translateDataSchema: JsonSchema = {
  type: 'object',
  required: ['content', 'tokens'],
  properties: {
    content: { type: 'string', description: 'The translation', example: 'Bonjour, le monde' },
    tokens: {
      type: 'object',
      description: 'The tenant’s AI token usage this month (UTC), this call included',
      required: ['used', 'remaining', 'limit'],
      properties: {
        used: tokenCount,
        remaining: { ...tokenCount, description: 'max(0, limit − used)' },
        limit: tokenCount,
      },
    },
  },
};
