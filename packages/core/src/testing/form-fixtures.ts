/** Stored forms and submissions to seed repositories with in tests (contract suites, use cases). */
import type { Form } from '../forms/form.js';
import type { Submission } from '../forms/submission.js';
import { newId } from '../shared/ids.js';

const AT = new Date('2026-01-02T03:04:05.678Z');

/** A stored form with every default applied: one section with a text and an email field. */
export function formRecord(tenantId: string, slug: string, overrides: Partial<Form> = {}): Form {
  return {
    id: newId(),
    tenantId,
    slug,
    title: { en: `Form ${slug}` },
    description: {},
    submitButtonText: {},
    isActive: true,
    visibility: 'public',
    sections: [
      {
        title: {},
        description: {},
        fields: [
          { name: 'name', type: 'text', label: { en: 'Name' }, required: true, placeholder: {} },
          { name: 'email', type: 'email', label: { en: 'E-mail' }, required: false, placeholder: {} },
        ],
      },
    ],
    captcha: { enabled: false, provider: 'recaptcha', minScore: 0.5 },
    notifications: {
      enabled: false,
      email: { admin: { enabled: false, recipients: [] }, submitter: { enabled: false, field: 'email' } },
      push: { admin: { enabled: false }, submitter: { enabled: false } },
    },
    flow: { nextFormId: null, previousFormId: null },
    createdBy: null,
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  };
}

/** A stored submission of `formId` with no relations yet. */
export function submissionRecord(tenantId: string, formId: string, overrides: Partial<Submission> = {}): Submission {
  return {
    id: newId(),
    tenantId,
    formId,
    values: { name: 'Ada' },
    relations: {},
    submittedBy: null,
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  };
}
