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
  // On one line in the body too (whole: the body has no length bound): a title's own line breaks would forge lines of the mail.
  const title = singleLine(formTitleOf(message));
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

/**
 * Multi-line answers (a textarea) stay readable under their field name, and every line an answer
 * holds is indented under it, so none can pass for a line of the service's own (`Submitted by:`).
 * Unicode's line breaks count as well as CR and LF: VT, FF, NEL, U+2028 and U+2029.
 */
function indentContinuation(text: string): string {
  return text.replace(/\r\n|[\n\v\f\r\u0085\u2028\u2029]/g, '\n  ');
}

/** `text` with its control characters, line separators and bidirectional controls made spaces, on one line. */
function singleLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * A header-safe single line: no control characters (C0, DEL and C1: no header injection), no
 * line separators and no bidirectional controls (a subject that reads other than it is), at most
 * SUBJECT_MAX characters, never cut inside a surrogate pair (the half would be text a strict JSON
 * reader refuses in a push, and a replacement character in a mail).
 */
function oneLine(text: string): string {
  const line = singleLine(text);
  if (line.length <= SUBJECT_MAX) return line;
  const cut = line.slice(0, SUBJECT_MAX - 1);
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}
