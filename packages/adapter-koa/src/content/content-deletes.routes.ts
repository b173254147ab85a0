/**
 * §6.4 deletes with their cascades, and §6.5 relation disconnect. Every delete honours `If-Match`
 * and answers `data: null`; a second delete is 404.
 */
import {
  DeleteArticle,
  DeleteCategory,
  DeleteComment,
  DeleteForm,
  DeleteSubmission,
  ErrorCodes,
  type Access,
  type DeleteFormInput,
  type DisconnectRelation,
  type ErrorCode,
} from '@cms/core';
import { connectBodySchema, connectParamsSchema, submissionDataSchema } from '../forms/forms.schemas.js';
import { idParamsSchema } from '../http/record-schemas.js';
import { defineRoute, type RouteDefinition, type RouteModule } from '../routing/route-definition.js';

export interface ContentDeleteUseCases {
  readonly form: DeleteForm;
  readonly submission: DeleteSubmission;
  readonly article: DeleteArticle;
  readonly category: DeleteCategory;
  readonly comment: DeleteComment;
  readonly disconnect: DisconnectRelation;
}

interface DeleteRoute {
  readonly operationId: string;
  readonly path: string;
  readonly param?: string;
  readonly summary: string;
  readonly tags: readonly string[];
  readonly invalid: ErrorCode;
  readonly errors: readonly ErrorCode[];
  readonly message: string;
  /** The delete use case's own access rule (`DeleteForm.access`). */
  readonly rule: Access;
  readonly remove: { execute(caller: Parameters<DeleteForm['execute']>[0], input: DeleteFormInput): Promise<void> };
}

function deleteRoute(route: DeleteRoute): RouteDefinition {
  const param = route.param ?? 'id';
  return defineRoute<unknown, Record<string, string>>({
    operationId: route.operationId,
    method: 'DELETE',
    path: route.path,
    summary: route.summary,
    tags: route.tags,
    access: { rule: route.rule },
    params: idParamsSchema(param),
    invalidParams: route.invalid,
    ifMatch: true,
    success: { status: 200, message: route.message },
    errors: route.errors,
    handler: async ({ caller, params, ifMatch }) => {
      await route.remove.execute(caller, { id: params[param]!, ifMatch });
      return null;
    },
  });
}

export function contentDeleteRoutes(useCases: ContentDeleteUseCases): RouteModule {
  return [
    deleteRoute({
      operationId: 'deleteForm',
      path: '/forms/delete/:id',
      summary: 'Delete a form with all its submissions (and their ids in relations) and their notification jobs',
      tags: ['forms'],
      invalid: ErrorCodes.INVALID_FORM_ID,
      errors: [ErrorCodes.FORM_NOT_FOUND],
      message: 'Form deleted successfully',
      rule: DeleteForm.access,
      remove: useCases.form,
    }),
    deleteRoute({
      operationId: 'deleteSubmission',
      path: '/forms/submission/:id',
      summary: 'Erase a submission: its id leaves every relation that holds it, its notification jobs are dropped',
      tags: ['forms'],
      invalid: ErrorCodes.INVALID_SUBMISSION_ID,
      errors: [ErrorCodes.SUBMISSION_NOT_FOUND],
      message: 'Submission deleted successfully',
      rule: DeleteSubmission.access,
      remove: useCases.submission,
    }),
    deleteRoute({
      operationId: 'deleteArticle',
      path: '/articles/delete/:id',
      summary: 'Delete an article with its comments and every reaction on them',
      tags: ['articles'],
      invalid: ErrorCodes.INVALID_ARTICLE_ID,
      errors: [ErrorCodes.ARTICLE_NOT_FOUND],
      message: 'Article deleted successfully',
      rule: DeleteArticle.access,
      remove: useCases.article,
    }),
    deleteRoute({
      operationId: 'deleteCategory',
      path: '/categories/delete/:id',
      summary: 'Delete a category without sub-categories; articles that named it keep null references',
      tags: ['articles'],
      invalid: ErrorCodes.INVALID_CATEGORY_ID,
      errors: [ErrorCodes.CATEGORY_NOT_FOUND, ErrorCodes.CATEGORY_HAS_CHILDREN],
      message: 'Category deleted successfully',
      rule: DeleteCategory.access,
      remove: useCases.category,
    }),
    deleteRoute({
      operationId: 'deleteComment',
      path: '/articles/comments/:commentId',
      param: 'commentId',
      summary: 'Delete a comment, pending or approved, with its reactions (moderation)',
      tags: ['comments'],
      invalid: ErrorCodes.INVALID_COMMENT_ID,
      errors: [ErrorCodes.COMMENT_NOT_FOUND],
      message: 'Comment deleted successfully',
      rule: DeleteComment.access,
      remove: useCases.comment,
    }),
    defineRoute<{ relatedSubmissionId: string }, { id: string; fieldName: string }>({
      operationId: 'disconnectSubmissionRelation',
      method: 'POST',
      path: '/forms/submission/:id/relations/:fieldName/disconnect',
      summary: 'Disconnect a related submission from a relation field (the related submission need not exist any more)',
      tags: ['forms'],
      params: connectParamsSchema,
      invalidParams: ErrorCodes.INVALID_SUBMISSION_ID,
      body: connectBodySchema,
      success: { status: 200, message: 'Relation disconnected successfully', data: submissionDataSchema },
      etag: 'submission',
      errors: [ErrorCodes.SUBMISSION_NOT_FOUND, ErrorCodes.RELATION_FIELD_NOT_FOUND, ErrorCodes.RELATED_SUBMISSION_OTHER_FORM],
      handler: async ({ caller, params, body }) => ({
        submission: await useCases.disconnect.execute(caller, { submissionId: params.id, fieldName: params.fieldName, relatedSubmissionId: body.relatedSubmissionId }),
      }),
    }),
  ];
}
