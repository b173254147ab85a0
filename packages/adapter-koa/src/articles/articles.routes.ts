/**
 * §2.7 companions and article reactions: categories, articles, and the caller's own reaction.
 * Reaction use cases admit guests themselves right after the id check, as the contract orders
 * (400 → 401/400/401/429 → 404 → 403); the route hands them the body to read after admission.
 */
import {
  CreateArticle,
  CreateCategory,
  ErrorCodes,
  ReactToArticle,
  type CreateArticleInput,
  type CreateCategoryInput,
  type GetArticle,
  type ReactionChoice,
} from '@cms/core';
import { idParamsSchema } from '../http/record-schemas.js';
import { defineRoute, type RouteModule } from '../routing/route-definition.js';
import {
  articleDataSchema,
  articleReactionTotalsSchema,
  categoryDataSchema,
  createArticleBodySchema,
  createCategoryBodySchema,
  reactionBodySchema,
} from './articles.schemas.js';

export interface ArticleUseCases {
  readonly createCategory: CreateCategory;
  readonly createArticle: CreateArticle;
  readonly getArticle: GetArticle;
  readonly react: ReactToArticle;
}

export function articleRoutes({ createCategory, createArticle, getArticle, react }: ArticleUseCases): RouteModule {
  const reactionRoute = { tags: ['articles'], access: { rule: ReactToArticle.access, readsBearer: true }, params: idParamsSchema('id'), bodyAt: 'reaction' } as const;
  return [
    defineRoute<CreateCategoryInput>({
      operationId: 'createCategory',
      method: 'POST',
      path: '/categories/create',
      summary: 'Create a category, or a sub-category of a top-level one',
      tags: ['articles'],
      access: { rule: CreateCategory.access },
      body: createCategoryBodySchema,
      success: { status: 201, message: 'Category created successfully', data: categoryDataSchema },
      etag: 'category',
      handler: async ({ caller, body }) => ({ category: await createCategory.execute(caller, body) }),
    }),
    defineRoute<CreateArticleInput>({
      operationId: 'createArticle',
      method: 'POST',
      path: '/articles/create',
      summary: 'Create an article',
      tags: ['articles'],
      access: { rule: CreateArticle.access },
      body: createArticleBodySchema,
      success: { status: 201, message: 'Article created successfully', data: articleDataSchema },
      etag: 'article',
      handler: async ({ caller, body }) => ({ article: await createArticle.execute(caller, body) }),
    }),
    defineRoute<unknown, { id: string }>({
      operationId: 'getArticle',
      method: 'GET',
      path: '/articles/getById/:id',
      summary: 'Read an article with its current reaction totals',
      tags: ['articles'],
      params: idParamsSchema('id'),
      invalidParams: ErrorCodes.INVALID_ARTICLE_ID,
      success: { status: 200, message: 'Article retrieved successfully', data: articleDataSchema },
      etag: 'article',
      errors: [ErrorCodes.ARTICLE_NOT_FOUND],
      handler: async ({ caller, params }) => ({ article: await getArticle.execute(caller, { id: params.id }) }),
    }),
    defineRoute<ReactionChoice, { id: string }>({
      ...reactionRoute,
      operationId: 'setArticleReaction',
      method: 'PUT',
      path: '/articles/:id/reaction',
      summary: 'Set or switch the caller’s reaction to an article',
      invalidParams: ErrorCodes.INVALID_ARTICLE_ID,
      body: reactionBodySchema,
      success: { status: 200, message: 'Reaction saved successfully', data: articleReactionTotalsSchema },
      errors: [ErrorCodes.ARTICLE_NOT_FOUND, ErrorCodes.REACTIONS_DISABLED],
      handler: ({ caller, params, readBody }) => react.execute(caller, { articleId: params.id, reaction: readBody }),
    }),
    defineRoute<unknown, { id: string }>({
      ...reactionRoute,
      operationId: 'removeArticleReaction',
      method: 'DELETE',
      path: '/articles/:id/reaction',
      summary: 'Remove the caller’s reaction to an article (no reaction: still 200)',
      invalidParams: ErrorCodes.INVALID_ARTICLE_ID,
      success: { status: 200, message: 'Reaction removed successfully', data: articleReactionTotalsSchema },
      errors: [ErrorCodes.ARTICLE_NOT_FOUND, ErrorCodes.REACTIONS_DISABLED],
      handler: ({ caller, params, readBody }) => react.execute(caller, { articleId: params.id, reaction: async () => (await readBody(), null) }),
    }),
  ];
}
