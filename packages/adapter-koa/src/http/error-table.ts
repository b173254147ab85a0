/**
 * The one table from outcome codes to HTTP status and message. Typed as a Record over every
 * code, so a domain code added to core without a row here fails to compile.
 */
import type { ErrorCode } from '@cms/core';
import type { HttpErrorCode } from './http-error-codes.js';

export interface HttpOutcome {
  readonly status: number;
  /** Fixed message; absent means "the error's own message" (validation problems). */
  readonly message?: string;
}

export const ERROR_TABLE: Readonly<Record<ErrorCode | HttpErrorCode, HttpOutcome>> = {
  VALIDATION_FAILED: { status: 400 },
  UNAUTHORIZED: { status: 401, message: 'Unauthorized' },
  FORBIDDEN: { status: 403, message: 'Forbidden' },
  MISSING_USER_ID: { status: 400, message: 'Missing userId' },
  INVALID_CURSOR: { status: 400, message: 'Invalid cursor' },
  PRECONDITION_FAILED: { status: 412, message: 'Precondition failed' },

  GUEST_CAPTCHA_REQUIRED: { status: 401, message: 'captchaToken is required for guest engagement' },
  GUEST_ID_MISSING: { status: 400, message: 'Missing x-guest-id header' },
  GUEST_CAPTCHA_INVALID: { status: 401, message: 'captchaToken is invalid' },
  GUEST_RATE_LIMITED: { status: 429, message: 'Too many guest reactions, please try later' },

  AUTHOR_NOT_FOUND: { status: 404, message: 'Author not found' },
  INVALID_AUTHOR_ID: { status: 400, message: 'Invalid author id' },
  INVALID_ARTICLE_ID: { status: 400, message: 'Invalid article id' },
  ARTICLE_NOT_FOUND: { status: 404, message: 'Article not found' },
  REACTIONS_DISABLED: { status: 403, message: 'Reactions are disabled for this article' },
  INVALID_COMMENT_ID: { status: 400, message: 'Invalid comment id' },
  COMMENT_NOT_FOUND: { status: 404, message: 'Comment not found' },
  INVALID_CATEGORY_ID: { status: 400, message: 'Invalid category id' },
  CATEGORY_NOT_FOUND: { status: 404, message: 'Category not found' },
  CATEGORY_HAS_CHILDREN: { status: 409, message: 'Category has sub-categories' },

  INVALID_FORM_ID: { status: 400, message: 'Invalid form id' },
  FORM_NOT_FOUND: { status: 404, message: 'Form not found' },
  FORM_SLUG_TAKEN: { status: 409, message: 'Form slug already exists' },
  FORM_INACTIVE: { status: 403, message: 'Form is not active' },
  FORM_INTERNAL: { status: 403, message: 'Form is internal' },
  FORM_CAPTCHA_REQUIRED: { status: 401, message: 'captchaToken is required' },
  FORM_CAPTCHA_FAILED: { status: 403, message: 'CAPTCHA verification failed' },
  INVALID_SUBMISSION_ID: { status: 400, message: 'Invalid submission id' },
  SUBMISSION_NOT_FOUND: { status: 404, message: 'Submission not found' },
  RELATION_FIELD_NOT_FOUND: { status: 404, message: 'Relation field not found' },
  RELATED_SUBMISSION_NOT_FOUND: { status: 404, message: 'Related submission not found' },
  RELATED_SUBMISSION_OTHER_FORM: { status: 400, message: 'Related submission belongs to another form' },

  AI_NOT_CONFIGURED: { status: 503, message: 'AI provider is not configured' },
  AI_PROVIDER_FAILED: { status: 502, message: 'AI provider request failed' },
  AI_PROVIDER_TIMEOUT: { status: 504, message: 'AI provider timed out' },
  AI_QUOTA_EXCEEDED: { status: 429, message: 'AI token quota exceeded' },

  INVALID_WEBHOOK_ID: { status: 400, message: 'Invalid webhook id' },
  WEBHOOK_NOT_FOUND: { status: 404, message: 'Webhook not found' },
  WEBHOOK_URL_NOT_ALLOWED: { status: 400, message: 'Webhook URL is not allowed' },
  WEBHOOK_LIMIT_REACHED: { status: 409, message: 'Webhook limit reached' },

  TENANT_NOT_FOUND: { status: 404, message: 'Tenant not found' },
  TENANT_EXISTS: { status: 409, message: 'Tenant already exists' },
  API_KEY_NOT_FOUND: { status: 404, message: 'API key not found' },

  INVALID_JSON: { status: 400, message: 'Invalid JSON body' },
  BODY_TOO_LARGE: { status: 413, message: 'Request body too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Content-Type must be application/json' },
  UNSUPPORTED_CHARSET: { status: 415, message: 'A JSON body must be UTF-8' },
  UNSUPPORTED_CONTENT_ENCODING: { status: 415, message: 'Unsupported Content-Encoding' },
  URI_TOO_LONG: { status: 414, message: 'URI too long' },
  ROUTE_NOT_FOUND: { status: 404, message: 'Route not found' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed' },
  EXPECTATION_FAILED: { status: 417, message: 'Expectation failed' },
  HOST_MISSING: { status: 400, message: 'Missing Host header' },
  HOST_INVALID: { status: 400, message: 'Invalid Host header' },
};

export const DEFAULT_SERVER_ERROR_MESSAGE = 'Server Error';
