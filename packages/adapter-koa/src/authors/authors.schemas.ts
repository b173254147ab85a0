/** Author JSON Schemas: the strict create body and the stored author. */
import { AUTHOR_BIO_MAX, AUTHOR_NAME_MAX } from '@cms/core';
import { EMAIL_MAX, URL_MAX } from '@cms/core/internal';
import { nullable, nullableString, timestampSchema } from '../http/record-schemas.js';
import type { JsonSchema } from '../routing/route-definition.js';

export const createAuthorBodySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: AUTHOR_NAME_MAX },
    email: nullable({ type: 'string', maxLength: EMAIL_MAX, description: 'An e-mail address (one @, a dot in the domain, no spaces)' }),
    bio: nullable({ type: 'string', maxLength: AUTHOR_BIO_MAX }),
    avatarUrl: nullable({ type: 'string', maxLength: URL_MAX, description: 'An absolute http(s) URL' }),
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
