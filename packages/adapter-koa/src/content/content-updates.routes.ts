/**
 * §6.3 updates: `PATCH /<kind>/update/{id}` for forms, articles, categories and authors. The body
 * schema is the create body's, all optional; the use case runs it after the id, the lookup and
 * `If-Match` (the contract's order), and answers the record as stored with its new `ETag`.
 */
import { ErrorCodes, UpdateArticle, UpdateAuthor, UpdateCategory, type UpdateForm } from '@cms/core';
import { articleDataSchema, categoryDataSchema, createArticleBodySchema, createCategoryBodySchema } from '../articles/articles.schemas.js';
import { authorDataSchema, createAuthorBodySchema } from '../authors/authors.schemas.js';
import { createFormBodySchema, formDataSchema } from '../forms/forms.schemas.js';
import { idParamsSchema, partialBodySchema } from '../http/record-schemas.js';
import { defineRoute, type RouteInput, type RouteModule } from '../routing/route-definition.js';

export interface ContentUpdateUseCases {
  readonly form: UpdateForm;
  readonly article: UpdateArticle;
  readonly category: UpdateCategory;
  readonly author: UpdateAuthor;
}

type Input = RouteInput<unknown, { id: string }, unknown>;
const conditions = ({ ifMatch, checkBody }: Input) => ({ ifMatch, checkShape: checkBody });
const updateRoute = { method: 'PATCH', params: idParamsSchema('id'), bodyRequired: false, bodyCheckedBy: 'use-case', invalidJsonAt: 'body-check', ifMatch: true } as const;

export function contentUpdateRoutes({ form, article, category, author }: ContentUpdateUseCases): RouteModule {
  return [
    defineRoute<unknown, { id: string }>({
      ...updateRoute,
      operationId: 'updateForm',
      path: '/forms/update/:id',
      summary: 'Change a form: any create property; sections replaces the whole list; null restores a default',
      tags: ['forms'],
      access: { readsBearer: true },
      invalidParams: ErrorCodes.INVALID_FORM_ID,
      body: partialBodySchema(createFormBodySchema),
      success: { status: 200, message: 'Form updated successfully', data: formDataSchema },
      etag: 'form',
      errors: [ErrorCodes.FORM_NOT_FOUND, ErrorCodes.FORM_SLUG_TAKEN],
      handler: async (input) => ({ form: await form.execute(input.caller, { id: input.params.id, changes: input.body, ...conditions(input) }) }),
    }),
    defineRoute<unknown, { id: string }>({
      ...updateRoute,
      operationId: 'updateArticle',
      path: '/articles/update/:id',
      summary: 'Change an article (likes and dislikes are not writable)',
      tags: ['articles'],
      access: { rule: UpdateArticle.access },
      invalidParams: ErrorCodes.INVALID_ARTICLE_ID,
      body: partialBodySchema(createArticleBodySchema),
      success: { status: 200, message: 'Article updated successfully', data: articleDataSchema },
      etag: 'article',
      errors: [ErrorCodes.ARTICLE_NOT_FOUND],
      handler: async (input) => ({ article: await article.execute(input.caller, { id: input.params.id, changes: input.body, ...conditions(input) }) }),
    }),
    defineRoute<unknown, { id: string }>({
      ...updateRoute,
      operationId: 'updateCategory',
      path: '/categories/update/:id',
      summary: 'Change a category: name, reactionsEnabled, parentId (one level of nesting)',
      tags: ['articles'],
      access: { rule: UpdateCategory.access },
      invalidParams: ErrorCodes.INVALID_CATEGORY_ID,
      body: partialBodySchema(createCategoryBodySchema),
      success: { status: 200, message: 'Category updated successfully', data: categoryDataSchema },
      etag: 'category',
      errors: [ErrorCodes.CATEGORY_NOT_FOUND],
      handler: async (input) => ({ category: await category.execute(input.caller, { id: input.params.id, changes: input.body, ...conditions(input) }) }),
    }),
    defineRoute<unknown, { id: string }>({
      ...updateRoute,
      operationId: 'updateAuthor',
      path: '/authors/update/:id',
      summary: 'Change an author',
      tags: ['authors'],
      access: { rule: UpdateAuthor.access },
      invalidParams: ErrorCodes.INVALID_AUTHOR_ID,
      body: partialBodySchema(createAuthorBodySchema),
      success: { status: 200, message: 'Author updated successfully', data: authorDataSchema },
      etag: 'author',
      errors: [ErrorCodes.AUTHOR_NOT_FOUND],
      handler: async (input) => ({ author: await author.execute(input.caller, { id: input.params.id, changes: input.body, ...conditions(input) }) }),
    }),
  ];
}
