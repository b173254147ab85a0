/**
 * §2.8 comments: create (user or guest), approve, react to approved comments, and the
 * reaction summary. `/articles/comments/...` paths have four segments and `/articles/:id/...`
 * three, so neither shadows the other in the router.
 */
import {
  ApproveComment,
  CreateComment,
  ErrorCodes,
  ReactToComment,
  type CreateCommentInput,
  type GetCommentReactionSummary,
  type ReactionChoice,
} from '@cms/core';
import { reactionBodySchema } from '../articles/articles.schemas.js';
import { idParamsSchema } from '../http/record-schemas.js';
import { defineRoute, type RouteModule } from '../routing/route-definition.js';
import { commentDataSchema, commentReactionSummarySchema, createCommentBodySchema } from './comments.schemas.js';

export interface CommentUseCases {
  readonly create: CreateComment;
  readonly approve: ApproveComment;
  readonly react: ReactToComment;
  readonly summary: GetCommentReactionSummary;
}

export function commentRoutes({ create, approve, react, summary }: CommentUseCases): RouteModule {
  const commentParams = { params: idParamsSchema('commentId'), invalidParams: ErrorCodes.INVALID_COMMENT_ID } as const;
  const reactionRoute = { ...commentParams, tags: ['comments'], access: { rule: ReactToComment.access, readsBearer: true }, bodyAt: 'reaction' } as const;
  return [
    defineRoute<CreateCommentInput, { id: string }>({
      operationId: 'createComment',
      method: 'POST',
      path: '/articles/:id/comments',
      summary: 'Comment on an article (a user, or a guest under the guest rules); the comment starts pending',
      tags: ['comments'],
      access: { rule: CreateComment.access, readsBearer: true },
      params: idParamsSchema('id'),
      invalidParams: ErrorCodes.INVALID_ARTICLE_ID,
      body: createCommentBodySchema,
      bodyAt: 'comment',
      success: { status: 201, message: 'Comment created successfully', data: commentDataSchema },
      etag: 'comment',
      errors: [ErrorCodes.ARTICLE_NOT_FOUND],
      handler: async ({ caller, params, readBody }) => ({ comment: await create.execute(caller, { articleId: params.id, comment: readBody }) }),
    }),
    defineRoute<unknown, { commentId: string }>({
      ...commentParams,
      operationId: 'approveComment',
      method: 'PUT',
      path: '/articles/comments/:commentId/approve',
      summary: 'Approve a comment',
      tags: ['comments'],
      access: { rule: ApproveComment.access },
      success: { status: 200, message: 'Comment approved successfully', data: commentDataSchema },
      etag: 'comment',
      errors: [ErrorCodes.COMMENT_NOT_FOUND],
      handler: async ({ caller, params }) => ({ comment: await approve.execute(caller, { id: params.commentId }) }),
    }),
    defineRoute<ReactionChoice, { commentId: string }>({
      ...reactionRoute,
      operationId: 'setCommentReaction',
      method: 'PUT',
      path: '/articles/comments/:commentId/reaction',
      summary: 'Set or switch the caller’s reaction to an approved comment',
      body: reactionBodySchema,
      success: { status: 200, message: 'Reaction saved successfully', data: commentReactionSummarySchema },
      errors: [ErrorCodes.COMMENT_NOT_FOUND, ErrorCodes.REACTIONS_DISABLED],
      handler: ({ caller, params, readBody }) => react.execute(caller, { commentId: params.commentId, reaction: readBody }),
    }),
    defineRoute<unknown, { commentId: string }>({
      ...reactionRoute,
      operationId: 'removeCommentReaction',
      method: 'DELETE',
      path: '/articles/comments/:commentId/reaction',
      summary: 'Remove the caller’s reaction to an approved comment',
      success: { status: 200, message: 'Reaction removed successfully', data: commentReactionSummarySchema },
      errors: [ErrorCodes.COMMENT_NOT_FOUND, ErrorCodes.REACTIONS_DISABLED],
      handler: ({ caller, params, readBody }) => react.execute(caller, { commentId: params.commentId, reaction: async () => (await readBody(), null) }),
    }),
    defineRoute<unknown, { commentId: string }>({
      ...commentParams,
      operationId: 'getCommentReactionSummary',
      method: 'GET',
      path: '/articles/comments/:commentId/reactionSummary',
      summary: 'Read an approved comment’s reaction totals and the caller’s own reaction (no CAPTCHA needed)',
      tags: ['comments'],
      access: { readsBearer: true, readsGuestId: true },
      success: { status: 200, message: 'Comment reaction summary retrieved successfully', data: commentReactionSummarySchema },
      errors: [ErrorCodes.COMMENT_NOT_FOUND],
      handler: ({ caller, params }) => summary.execute(caller, { id: params.commentId }),
    }),
  ];
}
