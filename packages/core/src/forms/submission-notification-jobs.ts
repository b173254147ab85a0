/**
 * Which notification jobs a stored submission gives rise to (§3): none unless the form's
 * notifications are enabled, then one per enabled channel and audience. Admin e-mail carries the
 * form's recipients (none: the dispatcher resolves the tenant's admin addresses); submitter
 * e-mail carries the address answered in the form's submitter field, and is left out when the
 * submission has none. Push jobs carry no recipients.
 */
import type { NewNotificationJob, NotificationMessage } from '../notifications/notification.ports.js';
import type { Form } from './form.js';
import type { Submission } from './submission.js';

/** The jobs to enqueue for a stored submission of `form` (none when its notifications are off). */
export function submissionNotificationJobs(form: Form, submission: Submission): NewNotificationJob[] {
  const settings = form.notifications;
  if (!settings.enabled) return [];
  const message: NotificationMessage = {
    formId: form.id,
    formSlug: form.slug,
    formTitle: form.title,
    submissionId: submission.id,
    values: submission.values,
    submittedBy: submission.submittedBy,
    submittedAt: submission.createdAt,
  };
  const job = (channel: NewNotificationJob['channel'], audience: NewNotificationJob['audience'], recipients: readonly string[]) => ({
    tenantId: form.tenantId,
    channel,
    audience,
    recipients,
    message,
  });
  const jobs: NewNotificationJob[] = [];
  if (settings.email.admin.enabled) jobs.push(job('email', 'admin', [...settings.email.admin.recipients]));
  if (settings.email.submitter.enabled) {
    const field = settings.email.submitter.field;
    // Own values only: the field may be named after an Object.prototype member (`constructor`).
    const address = field !== null && Object.hasOwn(submission.values, field) ? submission.values[field] : undefined;
    if (typeof address === 'string' && address.trim() !== '') jobs.push(job('email', 'submitter', [address]));
  }
  if (settings.push.admin.enabled) jobs.push(job('push', 'admin', []));
  if (settings.push.submitter.enabled) jobs.push(job('push', 'submitter', []));
  return jobs;
}
