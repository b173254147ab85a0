/**
 * Turns a notification job into what its channel sends: an e-mail (subject and plain text) or a
 * push payload (JSON). Pure functions; the form title is shown in its first language.
 */
import type { NotificationJob, NotificationMessage } from './notification.ports.js';
import type { EmailMessage, PushPayload } from './notification-delivery.ports.js';

const SUBJECT_MAX = 200;

/** The form's title in the first language it was written in (the slug if it has none). */
export function formTitleOf(message: NotificationMessage): string {
  const first = Object.values(message.formTitle).find((title) => typeof title === 'string' && title.trim() !== '');
  return first?.trim() ?? message.formSlug;
}

/** The e-mail for one job, addressed to `to` (resolved by the dispatcher). */
export function renderNotificationEmail(job: NotificationJob, to: readonly string[]): EmailMessage {
  const { message } = job;
  const title = formTitleOf(message);
  const admin = job.audience === 'admin';
  const subject = oneLine(admin ? `New submission: ${title}` : `We received your submission: ${title}`);
  const intro = admin
    ? `A new submission was received for the form "${title}" (${message.formSlug}).`
    : `Thank you. We received your submission to "${title}".`;
  const facts = [
    `Submission: ${message.submissionId}`,
    `Submitted at: ${message.submittedAt.toISOString()}`,
    ...(admin ? [`Submitted by: ${message.submittedBy ?? 'guest'}`] : []),
  ];
  const values = Object.entries(message.values).map(([name, value]) => `${name}: ${indentContinuation(renderValue(value))}`);
  const text = [intro, '', ...facts, '', ...(values.length > 0 ? values : ['(no values)']), ''].join('\n');
  return { to, subject, text };
}

/** The JSON pushed for one job. `id` is stable across attempts: receivers de-duplicate on it. */
export function renderNotificationPush(job: NotificationJob): PushPayload {
  const { message } = job;
  return {
    id: job.id,
    event: 'form.submission',
    tenantId: job.tenantId,
    audience: job.audience,
    attempt: job.attempts,
    title: oneLine(formTitleOf(message)),
    form: { id: message.formId, slug: message.formSlug, title: message.formTitle },
    submission: {
      id: message.submissionId,
      submittedBy: message.submittedBy,
      submittedAt: message.submittedAt.toISOString(),
      values: message.values,
    },
  };
}

function renderValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(renderValue).join(', ');
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Multi-line answers (a textarea) stay readable under their field name. */
function indentContinuation(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/\n/g, '\n  ');
}

/** A header-safe single line: no control characters (no header injection), bounded length. */
function oneLine(text: string): string {
  const line = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();
  return line.length > SUBJECT_MAX ? `${line.slice(0, SUBJECT_MAX - 1)}…` : line;
}
