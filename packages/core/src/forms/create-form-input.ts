/**
 * The input of a form creation as a caller sends it: every optional property may be absent or
 * JSON `null` (both mean "absent"). Its shape — types, lengths, patterns, no unknown
 * properties — is checked by core (`normalizeFormInput`), whatever checked it before.
 */
import type { CaptchaProvider } from '../captcha/captcha.ports.js';
import type { FieldType, FormVisibility, LocalizedText } from './form.js';

/** A member an input may leave out or set to `null`, both meaning "the default". */
export type Maybe<T> = T | null | undefined;

export interface CreateFormFieldInput {
  name: string;
  type: FieldType;
  label: LocalizedText;
  required?: Maybe<boolean>;
  placeholder?: Maybe<LocalizedText>;
  options?: Maybe<Array<{ value: string; label: LocalizedText }>>;
  relation?: Maybe<{ formId: string; multiple?: Maybe<boolean> }>;
}

export interface CreateFormSectionInput {
  title?: Maybe<LocalizedText>;
  description?: Maybe<LocalizedText>;
  fields: CreateFormFieldInput[];
}

export interface CreateFormInput {
  title: LocalizedText;
  slug: string;
  sections: CreateFormSectionInput[];
  description?: Maybe<LocalizedText>;
  submitButtonText?: Maybe<LocalizedText>;
  isActive?: Maybe<boolean>;
  visibility?: Maybe<FormVisibility>;
  captcha?: Maybe<{ enabled?: Maybe<boolean>; provider?: Maybe<CaptchaProvider>; minScore?: Maybe<number> }>;
  notifications?: Maybe<{
    enabled?: Maybe<boolean>;
    email?: Maybe<{
      admin?: Maybe<{ enabled?: Maybe<boolean>; recipients?: Maybe<string[]> }>;
      submitter?: Maybe<{ enabled?: Maybe<boolean>; field?: Maybe<string> }>;
    }>;
    push?: Maybe<{ admin?: Maybe<{ enabled?: Maybe<boolean> }>; submitter?: Maybe<{ enabled?: Maybe<boolean> }> }>;
  }>;
  flow?: Maybe<{ nextFormId?: Maybe<string>; previousFormId?: Maybe<string> }>;
}
