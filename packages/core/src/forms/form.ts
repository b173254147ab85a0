/**
 * Forms: their stored shape, the allowed values and limits of §2.3. A form can be updated
 * (§6.3); stored submissions keep the values they were given, so a field removed from the form
 * stays in its old submissions.
 */
import type { CaptchaProvider } from '../captcha/captcha.ports.js';

export const FIELD_TYPES = ['text', 'email', 'textarea', 'number', 'phone', 'url', 'date', 'select', 'checkbox', 'relation'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const FORM_VISIBILITIES = ['public', 'internal'] as const;
export type FormVisibility = (typeof FORM_VISIBILITIES)[number];

/** Limits of the create body (the JSON Schema of an adapter enforces them; core names them once). */
export const FORM_LIMITS = {
  slugPattern: '^[a-z0-9-]{1,100}$',
  fieldNamePattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$',
  titleMax: 500,
  descriptionMax: 5000,
  submitButtonTextMax: 100,
  labelMax: 500,
  sectionsMax: 50,
  fieldsMax: 200,
  optionsMax: 200,
  optionValueMax: 200,
  recipientsMax: 50,
} as const;

/**
 * Most relation fields a form may have had over its life: distinct (name, target form) pairs,
 * current and earlier together (renamed, retargeted and dropped fields stay holders, decision
 * 0767). Twice what one form can hold at once (50 sections × 200 fields), so no form is refused
 * for what it has, only for renaming thousands of relation fields over and over (decision 0767).
 */
export const RELATION_HISTORY_MAX = 2 * FORM_LIMITS.sectionsMax * FORM_LIMITS.fieldsMax;

/** Language code → text. Absent optional texts are stored as `{}` (see docs/decisions/0201). */
export type LocalizedText = Record<string, string>;

export interface FormFieldOption {
  value: string;
  label: LocalizedText;
}

export interface FormRelationDefinition {
  /** The form whose submissions this field may connect. */
  formId: string;
  multiple: boolean;
}

export interface FormField {
  name: string;
  type: FieldType;
  label: LocalizedText;
  required: boolean;
  placeholder: LocalizedText;
  /** Present on `select` fields only. */
  options?: FormFieldOption[];
  /** Present on `relation` fields only. */
  relation?: FormRelationDefinition;
}

export interface FormSection {
  title: LocalizedText;
  description: LocalizedText;
  fields: FormField[];
}

export interface FormCaptcha {
  enabled: boolean;
  provider: CaptchaProvider;
  minScore: number;
}

export interface FormNotifications {
  enabled: boolean;
  email: {
    /** `recipients` empty: the dispatcher sends to the tenant's admin addresses. */
    admin: { enabled: boolean; recipients: string[] };
    /** `field`: the email field whose value is the submitter's address; null when the form has none. */
    submitter: { enabled: boolean; field: string | null };
  };
  push: { admin: { enabled: boolean }; submitter: { enabled: boolean } };
}

export interface FormFlow {
  nextFormId: string | null;
  previousFormId: string | null;
}

/** A stored form, with every default applied. */
export interface Form {
  id: string;
  tenantId: string;
  slug: string;
  title: LocalizedText;
  description: LocalizedText;
  submitButtonText: LocalizedText;
  isActive: boolean;
  visibility: FormVisibility;
  sections: FormSection[];
  captcha: FormCaptcha;
  notifications: FormNotifications;
  flow: FormFlow;
  /** The creating user's id, null when the form was created with the API key alone. */
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const DEFAULT_MIN_SCORE = 0.5;

/** Every field of the form, in order, across sections. (Loops, not flatMap: it showed in the connect and create profiles.) */
export function fieldsOf(form: Pick<Form, 'sections'>): FormField[] {
  const fields: FormField[] = [];
  for (const section of form.sections) for (const field of section.fields) fields.push(field);
  return fields;
}

/** Every language the form has a text in, anywhere: titles, descriptions, labels, placeholders, options. */
export function textLanguagesOf(form: Pick<Form, 'title' | 'description' | 'submitButtonText' | 'sections'>): Set<string> {
  const languages = new Set<string>();
  const add = (text: LocalizedText) => {
    for (const language of Object.keys(text)) languages.add(language);
  };
  [form.title, form.description, form.submitButtonText].forEach(add);
  for (const section of form.sections) {
    add(section.title);
    add(section.description);
    for (const field of section.fields) {
      add(field.label);
      add(field.placeholder);
      for (const option of field.options ?? []) add(option.label);
    }
  }
  return languages;
}

/** The field named `name`, without building the list of all fields (relation connect looks one up per request). */
export function findField(form: Pick<Form, 'sections'>, name: string): FormField | undefined {
  for (const section of form.sections) {
    for (const field of section.fields) if (field.name === name) return field;
  }
  return undefined;
}
