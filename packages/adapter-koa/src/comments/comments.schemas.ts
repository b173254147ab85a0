/** Comment JSON Schemas: the create body, the stored comment and the reaction summary. */
import { COMMENT_AUTHOR_NAME_MAX, COMMENT_CONTENT_MAX, REACTION_TYPES } from '@cms/core';
import { nonBlankText, nullable, nullableString, timestampSchema } from '../http/record-schemas.js';
import type { JsonSchema } from '../routing/route-definition.js';

export const createCommentBodySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['content'],
  properties: {
    content: nonBlankText(COMMENT_CONTENT_MAX),
    authorName: nullable(nonBlankText(COMMENT_AUTHOR_NAME_MAX)),
  },
};

export const commentDataSchema: JsonSchema = {
  type: 'object',
  required: ['comment'],
  properties: {
    comment: {
      type: 'object',
      required: ['id', 'articleId', 'content', 'authorName', 'status', 'createdBy', 'likes', 'dislikes', 'createdAt', 'updatedAt'],
      properties: {
        id: { type: 'string' },
        articleId: { type: 'string' },
        content: { type: 'string' },
        authorName: nullableString,
        status: { enum: ['pending', 'approved'] },
        createdBy: { ...nullableString, description: 'The user id; null for a guest' },
        likes: { type: 'integer', minimum: 0 },
        dislikes: { type: 'integer', minimum: 0 },
        createdAt: timestampSchema,
        updatedAt: timestampSchema,
      },
    },
  },
};

export const commentReactionSummarySchema: JsonSchema = {
  type: 'object',
  required: ['commentId', 'likes', 'dislikes', 'userReaction'],
  properties: {
    commentId: { type: 'string' },
    likes: { type: 'integer', minimum: 0 },
    dislikes: { type: 'integer', minimum: 0 },
    userReaction: { enum: [...REACTION_TYPES, null], description: 'The caller’s own reaction (user, else x-guest-id), or null' },
  },
};
