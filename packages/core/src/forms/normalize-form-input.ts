/**
 * Turns a create body into a form definition with every default applied, checking the rules a
 * JSON Schema cannot express: multilingual keys are languages of the tenant, texts are not
 * blank, field names are unique across sections, `options` only and always on select fields,
 * `relation` only and always on relation fields, option values unique per field, and the
 * submitter e-mail field names an email field. The first problem in body order is thrown.
 * Which referenced forms exist is left to the caller (it needs storage); they are returned.
 */
import type { CaptchaProvider } from '../captcha/captcha.ports.js';
import { validationError } from '../shared/domain-error.js';
import { canonicalId } from '../shared/ids.js';
import type { CreateFormFieldInput, CreateFormInput, CreateFormSectionInput } from './create-form-input.js';
import {
  DEFAULT_MIN_SCORE,
  fieldsOf,
  type Form,
  type FormField,
  type FormNotifications,
  type FormSection,
  type LocalizedText,
} from './form.js';

/** A form without its identity and audit fields. */
export type FormDefinition = Omit<Form, 'id' | 'tenantId' | 'createdBy' | 'createdAt' | 'updatedAt'>;

/** A form id the body refers to, and where. */
export interface FormReference {
  readonly path: string;
  readonly formId: string;
}

export interface NormalizeContext {
  readonly languages: readonly string[];
  readonly defaultCaptchaProvider: CaptchaProvider;
}

/**
 * The stored shape of a create body, every default applied (`captcha.provider` from the context),
 * plus the form ids it refers to. Throws `VALIDATION_FAILED` naming the first broken rule.
 */
export function normalizeFormInput(
  input: CreateFormInput,
  context: NormalizeContext,
): { definition: FormDefinition; references: FormReference[] } {
  const text = localizedTextChecker(context.languages);
  const references: FormReference[] = [];
  const title = text(input.title, 'body.title');
  const description = text(input.description, 'body.description');
  const submitButtonText = text(input.submitButtonText, 'body.submitButtonText');
  const seenNames = new Map<string, string>();
  const sections = input.sections.map((section, index) =>
    normalizeSection(section, `body.sections[${index}]`, { text, seenNames, references }),
  );
  const notifications = normalizeNotifications(input.notifications, sections);
  const flow = {
    nextFormId: referenceTo(input.flow?.nextFormId, 'body.flow.nextFormId', references),
    previousFormId: referenceTo(input.flow?.previousFormId, 'body.flow.previousFormId', references),
  };
  return {
    definition: {
      slug: input.slug,
      title,
      description,
      submitButtonText,
      isActive: input.isActive ?? true,
      visibility: input.visibility ?? 'public',
      sections,
      captcha: {
        enabled: input.captcha?.enabled ?? false,
        provider: input.captcha?.provider ?? context.defaultCaptchaProvider,
        minScore: input.captcha?.minScore ?? DEFAULT_MIN_SCORE,
      },
      notifications,
      flow,
    },
    references,
  };
}

type TextChecker = (value: LocalizedText | null | undefined, path: string) => LocalizedText;

/** Absent maps become `{}`; every key must be a tenant language and every text non-blank. */
function localizedTextChecker(languages: readonly string[]): TextChecker {
  return (value, path) => {
    const result: LocalizedText = {};
    if (value === null || value === undefined) return result;
    for (const language of Object.keys(value)) {
      const content = value[language]!;
      if (!languages.includes(language)) {
        throw validationError(`${path}.${language}`, `is not a configured language (${languages.join(', ')})`);
      }
      if (content.trim() === '') throw validationError(`${path}.${language}`, 'must not be blank');
      result[language] = content;
    }
    return result;
  };
}

interface SectionContext {
  readonly text: TextChecker;
  /** Field name → where it was first declared. */
  readonly seenNames: Map<string, string>;
  readonly references: FormReference[];
}

function normalizeSection(section: CreateFormSectionInput, path: string, context: SectionContext): FormSection {
  return {
    title: context.text(section.title, `${path}.title`),
    description: context.text(section.description, `${path}.description`),
    fields: section.fields.map((field, index) => normalizeField(field, `${path}.fields[${index}]`, context)),
  };
}

function normalizeField(field: CreateFormFieldInput, path: string, context: SectionContext): FormField {
  if (context.seenNames.has(field.name)) {
    throw validationError(`${path}.name`, `duplicates the field name "${field.name}" (first declared at ${context.seenNames.get(field.name)})`);
  }
  context.seenNames.set(field.name, path);
  const result: FormField = {
    name: field.name,
    type: field.type,
    label: context.text(field.label, `${path}.label`),
    required: field.required ?? false,
    placeholder: context.text(field.placeholder, `${path}.placeholder`),
  };
  const options = field.options ?? undefined;
  if (field.type === 'select') {
    if (!options) throw validationError(`${path}.options`, 'is required for a select field');
    const seenValues = new Set<string>();
    result.options = options.map((option, index) => {
      if (seenValues.has(option.value)) {
        throw validationError(`${path}.options[${index}].value`, `duplicates the option value "${option.value}"`);
      }
      seenValues.add(option.value);
      return { value: option.value, label: context.text(option.label, `${path}.options[${index}].label`) };
    });
  } else if (options) {
    throw validationError(`${path}.options`, 'is only allowed on a select field');
  }
  const relation = field.relation ?? undefined;
  if (field.type === 'relation') {
    if (!relation) throw validationError(`${path}.relation`, 'is required for a relation field');
    const formId = referenceTo(relation.formId, `${path}.relation.formId`, context.references)!;
    result.relation = { formId, multiple: relation.multiple ?? false };
  } else if (relation) {
    throw validationError(`${path}.relation`, 'is only allowed on a relation field');
  }
  return result;
}

function normalizeNotifications(input: CreateFormInput['notifications'], sections: FormSection[]): FormNotifications {
  const emailFields = fieldsOf({ sections }).filter((field) => field.type === 'email');
  const submitter = input?.email?.submitter;
  let field: string | null = emailFields[0]?.name ?? null;
  if (submitter?.field !== undefined && submitter.field !== null) {
    if (!emailFields.some((candidate) => candidate.name === submitter.field)) {
      throw validationError('body.notifications.email.submitter.field', `does not name an email field of this form ("${submitter.field}")`);
    }
    field = submitter.field;
  }
  return {
    enabled: input?.enabled ?? false,
    email: {
      admin: { enabled: input?.email?.admin?.enabled ?? false, recipients: [...(input?.email?.admin?.recipients ?? [])] },
      submitter: { enabled: submitter?.enabled ?? false, field },
    },
    push: {
      admin: { enabled: input?.push?.admin?.enabled ?? false },
      submitter: { enabled: input?.push?.submitter?.enabled ?? false },
    },
  };
}

function referenceTo(id: string | null | undefined, path: string, references: FormReference[]): string | null {
  if (id === undefined || id === null) return null;
  const formId = canonicalId(id);
  references.push({ path, formId });
  return formId;
}
