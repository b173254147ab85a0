/**
 * Forms and submissions: create and read forms, the next form of a flow, public and internal
 * submit, read a submission, connect a relation. Literal paths are declared before
 * parameterised ones; no two routes here match one path with one method.
 */
import {
  ErrorCodes,
  SubmitForm,
  type ConnectRelation,
  type CreateForm,
  type CreateFormInput,
  type GetForm,
  type GetNextForm,
  type GetSubmission,
} from '@cms/core';
import { defineRoute, type RouteModule } from '../routing/route-definition.js';
import {
  captchaQuerySchema,
  connectBodySchema,
  connectParamsSchema,
  createFormBodySchema,
  formDataSchema,
  formIdParamsSchema,
  nextFormDataSchema,
  submissionDataSchema,
  submissionIdParamsSchema,
  submitBodySchema,
} from './forms.schemas.js';

export interface FormsUseCases {
  readonly create: CreateForm;
  readonly get: GetForm;
  readonly getNext: GetNextForm;
  readonly submit: SubmitForm;
  readonly getSubmission: GetSubmission;
  readonly connect: ConnectRelation;
}

type IdParams = { id: string };

export function formsRoutes({ create, get, getNext, submit, getSubmission, connect }: FormsUseCases): RouteModule {
  const submitErrors = [ErrorCodes.FORM_NOT_FOUND, ErrorCodes.FORM_INACTIVE];
  return [
    defineRoute<CreateFormInput>({
      operationId: 'createForm',
      method: 'POST',
      path: '/forms/create',
      summary: 'Create a form with multilingual text, sections and fields',
      tags: ['forms'],
      access: { readsBearer: true },
      body: createFormBodySchema,
      success: { status: 201, message: 'Form created successfully', data: formDataSchema },
      etag: 'form',
      errors: [ErrorCodes.FORM_SLUG_TAKEN],
      handler: async ({ caller, body }) => ({ form: await create.execute(caller, body) }),
    }),
    defineRoute<unknown, IdParams>({
      operationId: 'getFormById',
      method: 'GET',
      path: '/forms/getById/:id',
      summary: 'Read a form of the tenant as stored',
      tags: ['forms'],
      params: formIdParamsSchema,
      invalidParams: ErrorCodes.INVALID_FORM_ID,
      success: { status: 200, message: 'Form retrieved successfully', data: formDataSchema },
      etag: 'form',
      errors: [ErrorCodes.FORM_NOT_FOUND],
      handler: async ({ caller, params }) => ({ form: await get.execute(caller, { id: params.id }) }),
    }),
    defineRoute<unknown, IdParams>({
      operationId: 'getNextFormById',
      method: 'GET',
      path: '/forms/getNextById/:id',
      summary: 'Public view of the next form of a multi-step flow (null when none is usable)',
      tags: ['forms'],
      params: formIdParamsSchema,
      invalidParams: ErrorCodes.INVALID_FORM_ID,
      success: { status: 200, message: 'Next form retrieved successfully', data: nextFormDataSchema },
      errors: [ErrorCodes.FORM_NOT_FOUND],
      handler: ({ caller, params }) => getNext.execute(caller, { id: params.id }),
    }),
    defineRoute<unknown, IdParams>({
      operationId: 'getSubmissionById',
      method: 'GET',
      path: '/forms/submission/:id',
      summary: 'Read a submission with its relations',
      tags: ['forms'],
      params: submissionIdParamsSchema,
      invalidParams: ErrorCodes.INVALID_SUBMISSION_ID,
      success: { status: 200, message: 'Submission retrieved successfully', data: submissionDataSchema },
      etag: 'submission',
      errors: [ErrorCodes.SUBMISSION_NOT_FOUND],
      handler: async ({ caller, params }) => ({ submission: await getSubmission.execute(caller, { id: params.id }) }),
    }),
    defineRoute<{ relatedSubmissionId: string }, IdParams & { fieldName: string }>({
      operationId: 'connectSubmissionRelation',
      method: 'POST',
      path: '/forms/submission/:id/relations/:fieldName/connect',
      summary: 'Connect a related submission to a relation field of a submission',
      tags: ['forms'],
      params: connectParamsSchema,
      invalidParams: ErrorCodes.INVALID_SUBMISSION_ID,
      body: connectBodySchema,
      success: { status: 200, message: 'Relation connected successfully', data: submissionDataSchema },
      etag: 'submission',
      errors: [
        ErrorCodes.SUBMISSION_NOT_FOUND,
        ErrorCodes.RELATION_FIELD_NOT_FOUND,
        ErrorCodes.RELATED_SUBMISSION_NOT_FOUND,
        ErrorCodes.RELATED_SUBMISSION_OTHER_FORM,
      ],
      handler: async ({ caller, params, body }) => ({
        submission: await connect.execute(caller, { submissionId: params.id, fieldName: params.fieldName, relatedSubmissionId: body.relatedSubmissionId }),
      }),
    }),
    defineRoute<unknown, IdParams>({
      operationId: 'submitForm',
      method: 'POST',
      path: '/forms/:id/submit',
      summary: 'Submit a public form (CAPTCHA token in x-captcha-token or ?captchaToken when the form’s gate is on)',
      tags: ['forms'],
      access: { rule: SubmitForm.access.public, readsBearer: true, readsCaptchaToken: true },
      params: formIdParamsSchema,
      invalidParams: ErrorCodes.INVALID_FORM_ID,
      query: captchaQuerySchema,
      body: submitBodySchema,
      bodyCheckedBy: 'use-case',
      bodyAt: 'submission',
      success: { status: 201, message: 'Form submitted successfully', data: submissionDataSchema },
      etag: 'submission',
      errors: [...submitErrors, ErrorCodes.FORM_INTERNAL, ErrorCodes.FORM_CAPTCHA_REQUIRED, ErrorCodes.FORM_CAPTCHA_FAILED],
      handler: async ({ caller, params, body, captchaToken }) => ({
        submission: await submit.execute(caller, { formId: params.id, submission: body, mode: 'public', captchaToken }),
      }),
    }),
    defineRoute<unknown, IdParams>({
      operationId: 'submitFormInternally',
      method: 'POST',
      path: '/forms/:id/internal-submit',
      summary: 'Submit a public or internal form as a user, without CAPTCHA',
      tags: ['forms'],
      access: { rule: SubmitForm.access.internal, readsBearer: true },
      params: formIdParamsSchema,
      invalidParams: ErrorCodes.INVALID_FORM_ID,
      body: submitBodySchema,
      bodyCheckedBy: 'use-case',
      bodyAt: 'submission',
      success: { status: 201, message: 'Form submitted successfully', data: submissionDataSchema },
      etag: 'submission',
      errors: submitErrors,
      handler: async ({ caller, params, body }) => ({
        submission: await submit.execute(caller, { formId: params.id, submission: body, mode: 'internal' }),
      }),
    }),
  ];
}
