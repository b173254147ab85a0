/**
 * Forms JSON Schemas. Request bodies are strict: `additionalProperties: false` at every level,
 * so an unknown property is a 400 naming it. JSON `null` is accepted wherever a property is
 * optional (it means "absent"). What a schema cannot know — the tenant's languages, unique field
 * names, options/relation per field type, referenced forms — core checks next.
 */
import { CAPTCHA_PROVIDERS, FIELD_TYPES, FORM_LIMITS, FORM_VISIBILITIES } from '@cms/core';
import { ID_PATTERN_SOURCE } from '@cms/core/internal';
import { nonBlankText } from '../http/record-schemas.js';
import type { JsonSchema } from '../routing/route-definition.js';
import { LANGUAGE_CODE } from '../routing/schema-validator.js';

const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
const strictObject = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  ...(required.length ? { required } : {}),
  properties,
});

const id: JsonSchema = { type: 'string', pattern: ID_PATTERN_SOURCE, example: '65f0c0ffee0000000000abcd' };
const flag: JsonSchema = nullable({ type: 'boolean' });

/** Language code → non-blank text; the codes must be languages configured for the tenant. */
function localized(max: number, required: boolean): JsonSchema {
  return {
    type: 'object',
    ...(required ? { minProperties: 1 } : {}),
    propertyNames: { [LANGUAGE_CODE]: true },
    additionalProperties: nonBlankText(max),
    description: `Language code (one configured for the tenant) → non-blank text of at most ${max} characters${required ? '; at least one entry' : ''}.`,
    example: { en: 'Contact us' },
  };
}

const optionSchema = strictObject(
  { value: { type: 'string', minLength: 1, maxLength: FORM_LIMITS.optionValueMax }, label: localized(FORM_LIMITS.labelMax, true) },
  ['value', 'label'],
);

const fieldSchema = strictObject(
  {
    name: { type: 'string', pattern: FORM_LIMITS.fieldNamePattern, description: 'Unique in the form.' },
    type: { enum: [...FIELD_TYPES] },
    label: localized(FORM_LIMITS.labelMax, true),
    required: flag,
    placeholder: nullable(localized(FORM_LIMITS.labelMax, false)),
    options: nullable({
      type: 'array',
      minItems: 1,
      maxItems: FORM_LIMITS.optionsMax,
      items: optionSchema,
      description: 'Only and always on select fields; values unique.',
    }),
    relation: nullable({
      ...strictObject({ formId: { ...id, description: 'A form of the tenant.' }, multiple: flag }, ['formId']),
      description: 'Only and always on relation fields.',
    }),
  },
  ['name', 'type', 'label'],
);

const sectionSchema = strictObject(
  {
    title: nullable(localized(FORM_LIMITS.titleMax, false)),
    description: nullable(localized(FORM_LIMITS.descriptionMax, false)),
    fields: { type: 'array', minItems: 1, maxItems: FORM_LIMITS.fieldsMax, items: fieldSchema },
  },
  ['fields'],
);

export const createFormBodySchema: JsonSchema = strictObject(
  {
    title: localized(FORM_LIMITS.titleMax, true),
    slug: { type: 'string', pattern: FORM_LIMITS.slugPattern, description: 'Unique in the tenant.', example: 'contact-us' },
    sections: { type: 'array', minItems: 1, maxItems: FORM_LIMITS.sectionsMax, items: sectionSchema },
    description: nullable(localized(FORM_LIMITS.descriptionMax, false)),
    submitButtonText: nullable(localized(FORM_LIMITS.submitButtonTextMax, false)),
    isActive: flag,
    visibility: nullable({ enum: [...FORM_VISIBILITIES] }),
    captcha: nullable(
      strictObject({
        enabled: flag,
        provider: nullable({ enum: [...CAPTCHA_PROVIDERS] }),
        minScore: nullable({ type: 'number', minimum: 0, maximum: 1 }),
      }),
    ),
    notifications: nullable(
      strictObject({
        enabled: flag,
        email: nullable(
          strictObject({
            admin: nullable(
              strictObject({
                enabled: flag,
                recipients: nullable({
                  type: 'array',
                  maxItems: FORM_LIMITS.recipientsMax,
                  items: { type: 'string', format: 'email', maxLength: 254 },
                  description: 'None: the tenant’s admin addresses.',
                }),
              }),
            ),
            submitter: nullable(
              strictObject({ enabled: flag, field: nullable({ type: 'string', description: 'An email field of the form; default the first one.' }) }),
            ),
          }),
        ),
        push: nullable(strictObject({ admin: nullable(strictObject({ enabled: flag })), submitter: nullable(strictObject({ enabled: flag })) })),
      }),
    ),
    flow: nullable(strictObject({ nextFormId: nullable(id), previousFormId: nullable(id) })),
  },
  ['title', 'slug', 'sections'],
);

export const formIdParamsSchema: JsonSchema = { type: 'object', required: ['id'], properties: { id } };
export const submissionIdParamsSchema: JsonSchema = formIdParamsSchema;
export const connectParamsSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'fieldName'],
  properties: { id, fieldName: { type: 'string', description: 'A relation field of the submission’s form.' } },
};

export const captchaQuerySchema: JsonSchema = {
  type: 'object',
  properties: { captchaToken: { type: 'string', description: 'CAPTCHA token, when the header x-captcha-token is not sent.' } },
};

export const submitBodySchema: JsonSchema = strictObject(
  { values: { type: 'object', additionalProperties: true, description: 'Field name → answer of the field’s kind; relation fields take none.', example: { name: 'Ada' } } },
  ['values'],
);

export const connectBodySchema: JsonSchema = strictObject({ relatedSubmissionId: id }, ['relatedSubmissionId']);

// Response data

const timestamp: JsonSchema = { type: 'string', format: 'date-time', example: '2026-01-02T03:04:05.678Z' };
const text: JsonSchema = { type: 'object', additionalProperties: { type: 'string' } };
const nullableId: JsonSchema = { type: ['string', 'null'] };

const storedField: JsonSchema = {
  type: 'object',
  required: ['name', 'type', 'label', 'required', 'placeholder'],
  properties: {
    name: { type: 'string' },
    type: { enum: [...FIELD_TYPES] },
    label: text,
    required: { type: 'boolean' },
    placeholder: text,
    options: { type: 'array', items: { type: 'object', required: ['value', 'label'], properties: { value: { type: 'string' }, label: text } } },
    relation: { type: 'object', required: ['formId', 'multiple'], properties: { formId: { type: 'string' }, multiple: { type: 'boolean' } } },
  },
};

const publicFormProperties: Record<string, JsonSchema> = {
  id: { type: 'string' },
  slug: { type: 'string' },
  title: text,
  description: text,
  submitButtonText: text,
  isActive: { type: 'boolean' },
  visibility: { enum: [...FORM_VISIBILITIES] },
  sections: {
    type: 'array',
    items: { type: 'object', required: ['title', 'description', 'fields'], properties: { title: text, description: text, fields: { type: 'array', items: storedField } } },
  },
  captcha: { type: 'object', required: ['enabled', 'provider'], properties: { enabled: { type: 'boolean' }, provider: { enum: [...CAPTCHA_PROVIDERS] } } },
  flow: { type: 'object', required: ['nextFormId', 'previousFormId'], properties: { nextFormId: nullableId, previousFormId: nullableId } },
  createdAt: timestamp,
  updatedAt: timestamp,
};

const enabled = { type: 'object', required: ['enabled'], properties: { enabled: { type: 'boolean' } } };

const formSchema: JsonSchema = {
  type: 'object',
  required: [...Object.keys(publicFormProperties), 'tenantId', 'notifications', 'createdBy'],
  properties: {
    ...publicFormProperties,
    tenantId: { type: 'string' },
    captcha: {
      type: 'object',
      required: ['enabled', 'provider', 'minScore'],
      properties: { enabled: { type: 'boolean' }, provider: { enum: [...CAPTCHA_PROVIDERS] }, minScore: { type: 'number' } },
    },
    notifications: {
      type: 'object',
      required: ['enabled', 'email', 'push'],
      properties: {
        enabled: { type: 'boolean' },
        // Every audience is always answered, defaults applied (§2.3): required, so a typed client
        // reads `notifications.email.admin.enabled` without a check for absence.
        email: {
          type: 'object',
          required: ['admin', 'submitter'],
          properties: {
            admin: { type: 'object', required: ['enabled', 'recipients'], properties: { enabled: { type: 'boolean' }, recipients: { type: 'array', items: { type: 'string' } } } },
            submitter: { type: 'object', required: ['enabled', 'field'], properties: { enabled: { type: 'boolean' }, field: nullableId } },
          },
        },
        push: { type: 'object', required: ['admin', 'submitter'], properties: { admin: enabled, submitter: enabled } },
      },
    },
    createdBy: nullableId,
  },
};

const publicFormSchema: JsonSchema = { type: 'object', required: Object.keys(publicFormProperties), properties: publicFormProperties };

const submissionSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'formId', 'values', 'relations', 'submittedBy', 'createdAt', 'updatedAt'],
  properties: {
    id: { type: 'string' },
    formId: { type: 'string' },
    values: { type: 'object', additionalProperties: true },
    relations: {
      type: 'object',
      additionalProperties: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
      description: 'Field name → related submission id (single-value) or ids (multi-value).',
    },
    submittedBy: nullableId,
    createdAt: timestamp,
    updatedAt: timestamp,
  },
};

export const formDataSchema: JsonSchema = { type: 'object', required: ['form'], properties: { form: formSchema } };
export const nextFormDataSchema: JsonSchema = {
  type: 'object',
  required: ['nextForm'],
  properties: { nextForm: { anyOf: [publicFormSchema, { type: 'null' }] } },
};
export const submissionDataSchema: JsonSchema = { type: 'object', required: ['submission'], properties: { submission: submissionSchema } };
