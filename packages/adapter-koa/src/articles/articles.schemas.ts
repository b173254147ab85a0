/** Category, article and article-reaction JSON Schemas. */
import { ARTICLE_CONTENT_MAX, ARTICLE_TITLE_MAX, CATEGORY_NAME_MAX, REACTION_TYPES } from '@cms/core';
import { idSchema, nonBlankText, nullable, nullableId, timestampSchema } from '../http/record-schemas.js';
import type { JsonSchema } from '../routing/route-definition.js';

const optionalFlag = nullable({ type: 'boolean', description: 'Default true' });

export const createCategoryBodySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: nonBlankText(CATEGORY_NAME_MAX),
    parentId: nullable({ ...idSchema, description: 'An existing top-level category: the new one becomes its sub-category' }),
    reactionsEnabled: optionalFlag,
  },
};

export const categoryDataSchema: JsonSchema = {
  type: 'object',
  required: ['category'],
  properties: {
    category: {
      type: 'object',
      required: ['id', 'name', 'parentId', 'reactionsEnabled', 'createdAt', 'updatedAt'],
      properties: {
        id: { type: 'string' },
        name: { type: 'string' },
        parentId: nullableId,
        reactionsEnabled: { type: 'boolean' },
        createdAt: timestampSchema,
        updatedAt: timestampSchema,
      },
    },
  },
};

export const createArticleBodySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['title'],
  properties: {
    title: nonBlankText(ARTICLE_TITLE_MAX),
    content: nullable({ type: 'string', maxLength: ARTICLE_CONTENT_MAX }),
    authorId: nullable({ ...idSchema, description: 'An existing author' }),
    categoryId: nullable({ ...idSchema, description: 'An existing top-level category' }),
    subCategoryId: nullable({ ...idSchema, description: 'A sub-category of categoryId' }),
    reactionsEnabled: optionalFlag,
  },
};

export const articleDataSchema: JsonSchema = {
  type: 'object',
  required: ['article'],
  properties: {
    article: {
      type: 'object',
      required: ['id', 'title', 'content', 'authorId', 'categoryId', 'subCategoryId', 'reactionsEnabled', 'likes', 'dislikes', 'createdAt', 'updatedAt'],
      properties: {
        id: { type: 'string' },
        title: { type: 'string' },
        content: { type: 'string' },
        authorId: { ...nullableId, description: 'null when none was given or the author was deleted' },
        categoryId: nullableId,
        subCategoryId: nullableId,
        reactionsEnabled: { type: 'boolean' },
        likes: { type: 'integer', minimum: 0 },
        dislikes: { type: 'integer', minimum: 0 },
        createdAt: timestampSchema,
        updatedAt: timestampSchema,
      },
    },
  },
};

export const reactionBodySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  properties: { type: { enum: [...REACTION_TYPES] } },
};

export const articleReactionTotalsSchema: JsonSchema = {
  type: 'object',
  required: ['articleId', 'likes', 'dislikes'],
  properties: {
    articleId: { type: 'string' },
    likes: { type: 'integer', minimum: 0 },
    dislikes: { type: 'integer', minimum: 0 },
  },
};
