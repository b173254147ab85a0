/**
 * Turns a create input into a form definition with every default applied, checking every rule
 * of a form on the way (one walk, decision 0801): known properties, types, lengths, the slug and
 * field-name patterns, enums, the `minScore` range, at least one section and one field per
 * section; multilingual keys are languages of the tenant, texts are not blank, field names are
 * unique across sections, `options` only and always on select fields, `relation` only and
 * always on relation fields, option values unique per field, and the submitter e-mail field
 * names an email field. The first problem in input order is thrown, with its domain path
 * (`sections[0].fields[1].type`). Which referenced forms exist is left to the caller (it needs
 * storage); they are returned.
 */
import type { CaptchaProvider } from '../captcha/captcha.ports.js';
import { validationError } from '../shared/domain-error.js';
import { canonicalId } from '../shared/ids.js';
import { checkOptionalFlag, isAbsent, requireKnownKeys, requireList, requireMatch, requireOneOf, requireString } from '../shared/shape-rules.js';
import type { CreateFormInput } from './create-form-input.js';
import {
  DEFAULT_MIN_SCORE,
  FIELD_TYPES,
  FORM_LIMITS,
  FORM_VISIBILITIES,
  fieldsOf,
  type Form,
  type FormField,
  type FormNotifications,
  type FormSection,
} from './form.js';
import {
  FIELD_KEYS,
  FIELD_NAME_PATTERN,
  FORM_KEYS,
  OPTION_KEYS,
  RELATION_KEYS,
  SECTION_KEYS,
  SLUG_PATTERN,
  checkCaptcha,
  checkFlow,
  checkNotifications,
  localizedTextChecker,
  requireOptionalFormId,
  type TextChecker,
} from './form-input-rules.js';

/** A form without its identity and audit fields. */
export type FormDefinition = Omit<Form, 'id' | 'tenantId' | 'createdBy' | 'createdAt' | 'updatedAt'>;

/** A form id the body refers to, where (for the message) and what makes it. */
export interface FormReference {
  readonly path: string;
  /** `flow.nextFormId`, `flow.previousFormId`, or the name of the relation field that targets it. */
  readonly holder: string;
  readonly formId: string;
}

export interface NormalizeContext {
  readonly languages: readonly string[];
  /** A language outside `languages` that is accepted all the same (an update: one the stored form uses). */
  readonly keepsLanguage?: (language: string) => boolean;
  /**
   * An update that does not give `notifications` keeps a submitter field chosen for the old
   * sections. When the new sections have no such e-mail field: `'default'` (submitter e-mail
   * off) takes the default again; `'refuse'` says the sections dropped it.
   */
  readonly keptSubmitterField?: 'default' | 'refuse';
  readonly defaultCaptchaProvider: CaptchaProvider;
}

/**
 * The stored shape of a create input, every default applied (`captcha.provider` from the
 * context), plus the form ids it refers to. Throws `VALIDATION_FAILED` naming the first broken
 * rule. The input is typed for callers; at run time it may be anything.
 */
export function normalizeFormInput(
  input: CreateFormInput,
  context: NormalizeContext,
): { definition: FormDefinition; references: FormReference[] } {
  const raw: unknown = input;
  requireKnownKeys(raw, '', FORM_KEYS);
  const text = localizedTextChecker(context.languages, context.keepsLanguage);
  const references: FormReference[] = [];
  const title = text(raw.title, 'title', FORM_LIMITS.titleMax, true);
  requireMatch(raw.slug, 'slug', SLUG_PATTERN, SLUG_WORDS);
  const description = text(raw.description, 'description', FORM_LIMITS.descriptionMax);
  const submitButtonText = text(raw.submitButtonText, 'submitButtonText', FORM_LIMITS.submitButtonTextMax);
  checkOptionalFlag(raw.isActive, 'isActive');
  if (!isAbsent(raw.visibility)) requireOneOf(raw.visibility, 'visibility', FORM_VISIBILITIES);
  checkCaptcha(raw.captcha);
  checkNotifications(raw.notifications);
  checkFlow(raw.flow);
  requireList(raw.sections, 'sections', 1, FORM_LIMITS.sectionsMax);
  const seenNames = new Map<string, string>();
  const sections = raw.sections.map((section, index) => normalizeSection(section, `sections[${index}]`, { text, seenNames, references }));
  const notifications = normalizeNotifications(input.notifications, sections, context.keptSubmitterField);
  const flow = {
    nextFormId: referenceTo(input.flow?.nextFormId, 'flow.nextFormId', references),
    previousFormId: referenceTo(input.flow?.previousFormId, 'flow.previousFormId', references),
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

const SLUG_WORDS = 'may contain only lowercase letters, digits and hyphens (1 to 100 characters)';
const FIELD_NAME_WORDS = 'must start with a letter and contain only letters, digits and underscores (at most 64 characters)';

interface SectionContext {
  readonly text: TextChecker;
  /** Field name → where it was first declared. */
  readonly seenNames: Map<string, string>;
  readonly references: FormReference[];
}

function normalizeSection(section: unknown, path: string, context: SectionContext): FormSection {
  requireKnownKeys(section, path, SECTION_KEYS);
  const title = context.text(section.title, `${path}.title`, FORM_LIMITS.titleMax);
  const description = context.text(section.description, `${path}.description`, FORM_LIMITS.descriptionMax);
  const fields = section.fields;
  requireList(fields, `${path}.fields`, 1, FORM_LIMITS.fieldsMax);
  return { title, description, fields: fields.map((field, index) => normalizeField(field, `${path}.fields[${index}]`, context)) };
}

function normalizeField(field: unknown, path: string, context: SectionContext): FormField {
  requireKnownKeys(field, path, FIELD_KEYS);
  const { name, type } = field;
  requireMatch(name, `${path}.name`, FIELD_NAME_PATTERN, FIELD_NAME_WORDS);
  requireOneOf(type, `${path}.type`, FIELD_TYPES);
  if (context.seenNames.has(name)) {
    throw validationError(`${path}.name`, `duplicates the field name "${name}" (first declared at ${context.seenNames.get(name)})`);
  }
  context.seenNames.set(name, path);
  checkOptionalFlag(field.required, `${path}.required`);
  const result: FormField = {
    name,
    type,
    label: context.text(field.label, `${path}.label`, FORM_LIMITS.labelMax, true),
    required: (field.required as boolean | null | undefined) ?? false,
    placeholder: context.text(field.placeholder, `${path}.placeholder`, FORM_LIMITS.labelMax),
  };
  const options = field.options ?? undefined;
  if (options !== undefined) requireList(options, `${path}.options`, 1, FORM_LIMITS.optionsMax);
  if (type === 'select') {
    if (!options) throw validationError(`${path}.options`, 'is required for a select field');
    const seenValues = new Set<string>();
    result.options = options.map((option, index) => {
      const at = `${path}.options[${index}]`;
      requireKnownKeys(option, at, OPTION_KEYS);
      const value = option.value;
      requireString(value, `${at}.value`, FORM_LIMITS.optionValueMax);
      if (seenValues.has(value)) throw validationError(`${at}.value`, `duplicates the option value "${value}"`);
      seenValues.add(value);
      return { value, label: context.text(option.label, `${at}.label`, FORM_LIMITS.labelMax, true) };
    });
  } else if (options) {
    throw validationError(`${path}.options`, 'is only allowed on a select field');
  }
  const relation = field.relation ?? undefined;
  if (relation !== undefined) {
    requireKnownKeys(relation, `${path}.relation`, RELATION_KEYS);
    requireOptionalFormId(relation.formId, `${path}.relation.formId`);
    if (isAbsent(relation.formId)) throw validationError(`${path}.relation.formId`, 'is required');
    checkOptionalFlag(relation.multiple, `${path}.relation.multiple`);
  }
  if (type === 'relation') {
    if (!relation) throw validationError(`${path}.relation`, 'is required for a relation field');
    const formId = referenceTo(relation.formId as string, `${path}.relation.formId`, context.references, name)!;
    result.relation = { formId, multiple: (relation.multiple as boolean | null | undefined) ?? false };
  } else if (relation) {
    throw validationError(`${path}.relation`, 'is only allowed on a relation field');
  }
  return result;
}

function normalizeNotifications(
  input: CreateFormInput['notifications'],
  sections: FormSection[],
  kept: NormalizeContext['keptSubmitterField'],
): FormNotifications {
  const emailFields = fieldsOf({ sections }).filter((field) => field.type === 'email');
  const submitter = input?.email?.submitter;
  let field: string | null = emailFields[0]?.name ?? null;
  if (submitter?.field !== undefined && submitter.field !== null) {
    if (emailFields.some((candidate) => candidate.name === submitter.field)) {
      field = submitter.field;
    } else if (kept === 'refuse') {
      throw validationError('sections', `no longer have the email field "${submitter.field}" that notifications.email.submitter.field names`);
    } else if (kept !== 'default') {
      throw validationError('notifications.email.submitter.field', `does not name an email field of this form ("${submitter.field}")`);
    }
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

function referenceTo(id: string | null | undefined, path: string, references: FormReference[], holder = path): string | null {
  if (id === undefined || id === null) return null;
  const formId = canonicalId(id);
  references.push({ path, holder, formId });
  return formId;
}
