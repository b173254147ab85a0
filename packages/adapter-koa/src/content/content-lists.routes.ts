/**
 * §6.1 lists: forms, a form's submissions, articles, categories, authors and an article's
 * comments. Each route checks its query (limit, cursor, filters) and hands it to its use case,
 * which reads one keyset page and signs the next cursor. Also the export of a form's
 * submissions (§6.6), the one list that streams every record.
 */
import {
  EXPORT_FORMATS,
  ErrorCodes,
  FORM_VISIBILITIES,
  type ListArticles,
  type ListAuthors,
  type ListCategories,
  type ListComments,
  type ListForms,
  type ListSubmissions,
  type ExportSubmissions,
} from '@cms/core';
import { ID_PATTERN_SOURCE } from '@cms/core/internal';
import { articleDataSchema, categoryDataSchema } from '../articles/articles.schemas.js';
import { authorDataSchema } from '../authors/authors.schemas.js';
import { commentDataSchema } from '../comments/comments.schemas.js';
import { formDataSchema, submissionDataSchema } from '../forms/forms.schemas.js';
import { FLAG_FILTER, listDataSchema, listQuerySchema } from '../http/list-schemas.js';
import { idParamsSchema } from '../http/record-schemas.js';
import { defineRoute, StreamedAnswer, type RouteModule } from '../routing/route-definition.js';
import { PARENT_FILTER_PATTERN } from '../routing/schema-validator.js';

export interface ContentListUseCases {
  readonly forms: ListForms;
  readonly submissions: ListSubmissions;
  readonly articles: ListArticles;
  readonly categories: ListCategories;
  readonly authors: ListAuthors;
  readonly comments: ListComments;
  readonly exportSubmissions: ExportSubmissions;
}

const EXPORT_TYPES = { csv: 'text/csv; charset=utf-8', ndjson: 'application/x-ndjson' } as const;

type Query = Record<string, string | undefined>;
const idFilter = (description: string) => ({ type: 'string', pattern: ID_PATTERN_SOURCE, description });
const listErrors = [ErrorCodes.INVALID_CURSOR];

export function contentListRoutes(lists: ContentListUseCases): RouteModule {
  return [
    defineRoute<unknown, Record<string, string>, Query>({
      operationId: 'listForms',
      method: 'GET',
      path: '/forms/list',
      summary: 'List the tenant’s forms, newest first, one page at a time',
      tags: ['forms'],
      query: listQuerySchema({
        isActive: FLAG_FILTER,
        visibility: { type: 'string', enum: [...FORM_VISIBILITIES] },
      }),
      success: { status: 200, message: 'Forms retrieved successfully', data: listDataSchema('forms', formDataSchema, 'form') },
      errors: listErrors,
      handler: ({ caller, query }) => lists.forms.execute(caller, query),
    }),
    defineRoute<unknown, { id: string }, Query>({
      operationId: 'listFormSubmissions',
      method: 'GET',
      path: '/forms/:id/submissions',
      summary: 'List the submissions of a form, newest first, one page at a time',
      tags: ['forms'],
      params: idParamsSchema('id'),
      invalidParams: ErrorCodes.INVALID_FORM_ID,
      query: listQuerySchema(),
      success: { status: 200, message: 'Submissions retrieved successfully', data: listDataSchema('submissions', submissionDataSchema, 'submission') },
      errors: [...listErrors, ErrorCodes.FORM_NOT_FOUND],
      queryCheckedBy: 'use-case',
      handler: ({ caller, params, query, checkQuery }) => lists.submissions.execute(caller, { limit: query.limit, cursor: query.cursor, formId: params.id, checkQuery }),
    }),
    defineRoute<unknown, { id: string }, Query>({
      operationId: 'exportFormSubmissions',
      method: 'GET',
      path: '/forms/:id/submissions/export',
      summary: 'Every submission of a form, oldest first, streamed as CSV (formula-leading cells escaped) or NDJSON; not enveloped',
      tags: ['forms'],
      params: idParamsSchema('id'),
      invalidParams: ErrorCodes.INVALID_FORM_ID,
      query: { type: 'object', additionalProperties: false, properties: { format: { type: 'string', enum: [...EXPORT_FORMATS], description: 'Default csv' } } },
      success: {
        status: 200,
        message: 'The export (CSV: header id,createdAt,submittedBy then the form’s field names)',
        streamed: { 'text/csv': { type: 'string' }, 'application/x-ndjson': { type: 'string', description: 'One submission record per line' } },
        headers: { 'Content-Disposition': { description: 'CSV only: attachment; filename="<slug>-submissions.csv"', schema: { type: 'string' } } },
      },
      errors: [ErrorCodes.FORM_NOT_FOUND],
      queryCheckedBy: 'use-case',
      handler: async ({ caller, params, query, checkQuery }) => {
        const exported = await lists.exportSubmissions.execute(caller, { format: query.format, formId: params.id, checkQuery });
        const disposition = exported.format === 'csv' ? { 'Content-Disposition': `attachment; filename="${exported.form.slug}-submissions.csv"` } : undefined;
        return new StreamedAnswer(EXPORT_TYPES[exported.format], exported.chunks, disposition);
      },
    }),
    defineRoute<unknown, Record<string, string>, Query>({
      operationId: 'listArticles',
      method: 'GET',
      path: '/articles/list',
      summary: 'List the tenant’s articles, newest first, by author and/or category (or sub-category)',
      tags: ['articles'],
      query: listQuerySchema({
        authorId: idFilter('Only this author’s articles'),
        categoryId: idFilter('Only articles in this category or sub-category'),
      }),
      success: { status: 200, message: 'Articles retrieved successfully', data: listDataSchema('articles', articleDataSchema, 'article') },
      errors: listErrors,
      handler: ({ caller, query }) => lists.articles.execute(caller, query),
    }),
    defineRoute<unknown, Record<string, string>, Query>({
      operationId: 'listCategories',
      method: 'GET',
      path: '/categories/list',
      summary: 'List the tenant’s categories, newest first; parentId an id (its children) or root (top-level ones)',
      tags: ['articles'],
      query: listQuerySchema({ parentId: { type: 'string', pattern: PARENT_FILTER_PATTERN, description: 'A category id, or root' } }),
      success: { status: 200, message: 'Categories retrieved successfully', data: listDataSchema('categories', categoryDataSchema, 'category') },
      errors: listErrors,
      handler: ({ caller, query }) => lists.categories.execute(caller, query),
    }),
    defineRoute<unknown, Record<string, string>, Query>({
      operationId: 'listAuthors',
      method: 'GET',
      path: '/authors/list',
      summary: 'List the tenant’s authors, newest first',
      tags: ['authors'],
      query: listQuerySchema(),
      success: { status: 200, message: 'Authors retrieved successfully', data: listDataSchema('authors', authorDataSchema, 'author') },
      errors: listErrors,
      handler: ({ caller, query }) => lists.authors.execute(caller, query),
    }),
    defineRoute<unknown, { id: string }, Query>({
      operationId: 'listArticleComments',
      method: 'GET',
      path: '/articles/:id/comments',
      summary: 'List an article’s comments, newest first; pending or all needs a bearer token with role admin or editor',
      tags: ['comments'],
      access: { readsBearer: true },
      params: idParamsSchema('id'),
      invalidParams: ErrorCodes.INVALID_ARTICLE_ID,
      query: listQuerySchema({ status: { type: 'string', enum: ['approved', 'pending', 'all'], description: 'Default approved' } }),
      success: { status: 200, message: 'Comments retrieved successfully', data: listDataSchema('comments', commentDataSchema, 'comment') },
      errors: [...listErrors, ErrorCodes.ARTICLE_NOT_FOUND, ErrorCodes.FORBIDDEN],
      queryCheckedBy: 'use-case',
      handler: ({ caller, params, query, checkQuery }) => lists.comments.execute(caller, { limit: query.limit, cursor: query.cursor, status: query.status, articleId: params.id, checkQuery }),
    }),
  ];
}
