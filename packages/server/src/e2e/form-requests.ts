/** Request builders shared by the forms HTTP specs: a valid create body, and create/submit calls. */
import type { CallOptions, TestService } from '../testing/test-service.js';

/** A valid create body: one section with a required text field `name` and an email field `email`. */
export function formBody(slug: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: { en: `Form ${slug}` },
    slug,
    sections: [
      {
        fields: [
          { name: 'name', type: 'text', label: { en: 'Name' }, required: true },
          { name: 'email', type: 'email', label: { en: 'E-mail' } },
        ],
      },
    ],
    ...overrides,
  };
}

/** Creates a form and returns `data.form`; fails loudly when the service refuses. */
export async function createForm(
  api: TestService,
  slug: string,
  overrides: Record<string, unknown> = {},
  options: CallOptions = {},
): Promise<any> {
  const res = await api.call('POST', '/forms/create', { ...options, body: formBody(slug, overrides) });
  if (res.status !== 201) throw new Error(`create ${slug}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.form;
}

/** Submits `values` publicly and returns `data.submission`; fails loudly when refused. */
export async function submitForm(api: TestService, formId: string, values: Record<string, unknown>, options: CallOptions = {}): Promise<any> {
  const res = await api.call('POST', `/forms/${formId}/submit`, { ...options, body: { values } });
  if (res.status !== 201) throw new Error(`submit ${formId}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.submission;
}

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const HEX_ID = /^[a-f0-9]{24}$/;
