/**
 * What a form's end users may see: the form without its tenant, its notification settings
 * (recipient addresses), its creator and the CAPTCHA threshold (which would help a bot).
 */
import { viewPerSnapshot, type SnapshotView } from '../shared/frozen-snapshots.js';
import type { Form, FormCaptcha } from './form.js';

export type PublicForm = Omit<Form, 'tenantId' | 'notifications' | 'createdBy' | 'captcha'> & {
  captcha: Omit<FormCaptcha, 'minScore'>;
};

/** The public view of a stored form; one shared frozen view per stored snapshot (`viewPerSnapshot`). */
export const formPublicView: SnapshotView<Form, PublicForm> = viewPerSnapshot((form: Form): PublicForm => {
  const { id, slug, title, description, submitButtonText, isActive, visibility, sections, captcha, flow, createdAt, updatedAt } = form;
  return {
    id,
    slug,
    title,
    description,
    submitButtonText,
    isActive,
    visibility,
    sections,
    captcha: { enabled: captcha.enabled, provider: captcha.provider },
    flow,
    createdAt,
    updatedAt,
  };
});
