/**
 * Repurpose template JSON Schemas: the strict partial update body and the stored template. In the
 * body, `null` for any property means absent (§0), at every level: that part is left unchanged.
 */
import { CTA_TEMPLATE_MAX, HASHTAG_STYLE_MAX, LENGTHS, MAX_HASHTAGS_LIMIT, PLATFORMS, TONES } from '@cms/core';
import { nullable } from '../http/record-schemas.js';
import type { JsonSchema } from '../routing/route-definition.js';
import { LANGUAGE_CODE } from '../routing/schema-validator.js';

const platformProperties = {
  tone: nullable({ enum: [...TONES] }),
  length: nullable({ enum: [...LENGTHS] }),
  ctaTemplate: nullable({ type: 'string', maxLength: CTA_TEMPLATE_MAX }),
  hashtagStyle: nullable({ type: 'string', maxLength: HASHTAG_STYLE_MAX }),
  maxHashtags: nullable({ type: 'integer', minimum: 0, maximum: MAX_HASHTAGS_LIMIT }),
};

const platformPatch: JsonSchema = nullable({ type: 'object', additionalProperties: false, properties: platformProperties });

export const repurposeTemplatePatchSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    defaults: nullable({
      type: 'object',
      additionalProperties: false,
      properties: {
        language: nullable({ type: 'string', [LANGUAGE_CODE]: true, minLength: 2, maxLength: 16, description: 'A language configured for the tenant' }),
        tone: nullable({ enum: [...TONES] }),
        length: nullable({ enum: [...LENGTHS] }),
      },
    }),
    platforms: nullable({
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(PLATFORMS.map((platform) => [platform, platformPatch])),
    }),
  },
};

const timestamp = { type: 'string', format: 'date-time', example: '2026-01-02T03:04:05.678Z' };

/**
 * A platform as stored: every member has a value (a `null` in the body leaves it unchanged), so
 * the answer's members are not nullable as the patch's are.
 */
const storedPlatform: JsonSchema = {
  type: 'object',
  required: Object.keys(platformProperties),
  properties: {
    tone: { enum: [...TONES] },
    length: { enum: [...LENGTHS] },
    ctaTemplate: { type: 'string' },
    hashtagStyle: { type: 'string' },
    maxHashtags: { type: 'integer', minimum: 0 },
  },
};

export const repurposeTemplateSchema: JsonSchema = {
  type: 'object',
  required: ['tenantId', 'defaults', 'platforms', 'updatedBy', 'createdAt', 'updatedAt'],
  properties: {
    tenantId: { type: 'string' },
    defaults: {
      type: 'object',
      required: ['language', 'tone', 'length'],
      properties: { language: { type: 'string' }, tone: { enum: [...TONES] }, length: { enum: [...LENGTHS] } },
    },
    platforms: {
      type: 'object',
      required: [...PLATFORMS],
      properties: Object.fromEntries(PLATFORMS.map((platform) => [platform, storedPlatform])),
    },
    updatedBy: { type: ['string', 'null'] },
    createdAt: timestamp,
    updatedAt: timestamp,
  },
};
