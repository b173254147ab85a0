/** §6.2 single reads by other keys: a form by its slug, a category by id. Both answer an `ETag`. */
import { ErrorCodes, FORM_LIMITS, type GetCategory, type GetFormBySlug } from '@cms/core';
import { categoryDataSchema } from '../articles/articles.schemas.js';
import { formDataSchema } from '../forms/forms.schemas.js';
import { idParamsSchema } from '../http/record-schemas.js';
import { defineRoute, type RouteModule } from '../routing/route-definition.js';

export interface ContentReadUseCases {
  readonly formBySlug: GetFormBySlug;
  readonly category: GetCategory;
}

export function contentReadRoutes({ formBySlug, category }: ContentReadUseCases): RouteModule {
  return [
    defineRoute<unknown, { slug: string }>({
      operationId: 'getFormBySlug',
      method: 'GET',
      path: '/forms/getBySlug/:slug',
      summary: 'Read a form of the tenant by its slug (a slug that cannot exist is 404 Form not found)',
      tags: ['forms'],
      // Documents the slug's form; any text reaches the use case, which answers 404 for a bad one.
      params: { type: 'object', required: ['slug'], properties: { slug: { type: 'string', description: `A slug (${FORM_LIMITS.slugPattern})` } } },
      success: { status: 200, message: 'Form retrieved successfully', data: formDataSchema },
      etag: 'form',
      errors: [ErrorCodes.FORM_NOT_FOUND],
      handler: async ({ caller, params }) => ({ form: await formBySlug.execute(caller, { slug: params.slug }) }),
    }),
    defineRoute<unknown, { id: string }>({
      operationId: 'getCategoryById',
      method: 'GET',
      path: '/categories/getById/:id',
      summary: 'Read a category',
      tags: ['articles'],
      params: idParamsSchema('id'),
      invalidParams: ErrorCodes.INVALID_CATEGORY_ID,
      success: { status: 200, message: 'Category retrieved successfully', data: categoryDataSchema },
      etag: 'category',
      errors: [ErrorCodes.CATEGORY_NOT_FOUND],
      handler: async ({ caller, params }) => ({ category: await category.execute(caller, { id: params.id }) }),
    }),
  ];
}
