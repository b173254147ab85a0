/** Author JSON Schemas: the strict create body and the stored author. */
import { AUTHOR_BIO_MAX, AUTHOR_NAME_MAX } from '@cms/core';
import { AVATAR_URL_PATTERN, EMAIL_MAX, EMAIL_PATTERN_SOURCE, URL_MAX } from '@cms/core/internal';
import { nonBlankText, nullable, nullableString, timestampSchema } from '../http/record-schemas.js';
import type { JsonSchema } from '../routing/route-definition.js';

export const createAuthorBodySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: nonBlankText(AUTHOR_NAME_MAX),
    email: nullable({
      type: 'string',
      maxLength: EMAIL_MAX,
      pattern: EMAIL_PATTERN_SOURCE,
      description: 'An e-mail address (one @, a dot in the domain, no spaces); stored trimmed',
      example: 'ada@example.org',
    }),
    bio: nullable({ type: 'string', maxLength: AUTHOR_BIO_MAX }),
    avatarUrl: nullable({
      type: 'string',
      maxLength: URL_MAX,
      pattern: AVATAR_URL_PATTERN,
      description: 'An absolute http(s) URL, written plainly (http:// or https:// before the host; no whitespace, control character or backslash); stored trimmed',
      example: 'https://example.org/ada.png',
    }),
  },
};

export const authorSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'name', 'email', 'bio', 'avatarUrl', 'createdAt', 'updatedAt'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    email: nullableString,
    bio: nullableString,
    avatarUrl: nullableString,
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  },
};

export const authorDataSchema: JsonSchema = { type: 'object', required: ['author'], properties: { author: authorSchema } };
