/**
 * Which notification jobs a stored submission gives rise to (§3): none unless the form's
 * notifications are enabled, then one per enabled channel and audience. Admin e-mail carries the
 * form's recipients (none: the dispatcher resolves the tenant's admin addresses); submitter
 * e-mail carries the address answered in the form's submitter field, or none when the submission
 * has none (the dispatcher then skips it with that reason, decision 0302). Push jobs carry no
 * recipients. Then how they are stored: by the submit,
 * or by a dispatcher pass when the submit's process died first (decision 0798).
 */
import { isMailAddress } from '../shared/input-rules.js';
import type { NewNotificationJob, NotificationMessage, NotificationOutbox } from '../notifications/notification.ports.js';
import type { TraceContext } from '../shared/trace-context.js';
import type { Form } from './form.js';
import type { SubmissionRepository } from './forms.ports.js';
import type { Submission } from './submission.js';

/**
 * The jobs to enqueue for a stored submission of `form` (none when its notifications are off),
 * carrying `trace`, the submit's, when given.
 */
export function submissionNotificationJobs(form: Form, submission: Submission, trace?: TraceContext): NewNotificationJob[] {
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
    ...(trace ? { trace } : {}),
  });
  const jobs: NewNotificationJob[] = [];
  if (settings.email.admin.enabled) jobs.push(job('email', 'admin', [...settings.email.admin.recipients]));
  if (settings.email.submitter.enabled) {
    const field = settings.email.submitter.field;
    // Own values only: the field may be named after an Object.prototype member (`constructor`).
    const address = field !== null && Object.hasOwn(submission.values, field) ? submission.values[field] : undefined;
    // Checked again here: recovered jobs are built from the form as it is now (decision 0798),
    // and a value stored while the field was plain text never met the e-mail field's rule.
    jobs.push(job('email', 'submitter', isMailAddress(address) ? [address] : []));
  }
  if (settings.push.admin.enabled) jobs.push(job('push', 'admin', []));
  if (settings.push.submitter.enabled) jobs.push(job('push', 'submitter', []));
  return jobs;
}

/**
 * How long after a submit its notification jobs are left to the submit itself before a dispatcher
 * pass may enqueue them (decision 0798). Longer than a store call can take before it fails (the
 * MongoDB driver gives up selecting a server after 30 s), so a slow enqueue is not doubled.
 */
export const NOTIFICATION_RECOVERY_AFTER_MS = 60_000;

/**
 * Stores `jobs` for a stored submission and takes its recovery marker off. When the submission
 * was erased, or went with its form, while the jobs were on their way, the delete dropped the
 * jobs it found, so these go too: their message carries the values (decision 0763). Used by the
 * submit and by the dispatcher's recovery of a submit that died before it.
 */
export async function storeSubmissionJobs(
  ports: { readonly outbox: NotificationOutbox; readonly submissions: SubmissionRepository },
  submission: Submission,
  jobs: readonly NewNotificationJob[],
  now: Date,
): Promise<void> {
  if (jobs.length > 0) await ports.outbox.enqueue(jobs, now);
  const stillThere = await ports.submissions.confirmNotified(submission.tenantId, submission.id);
  if (!stillThere) await ports.outbox.dropJobs(submission.tenantId, submission.formId, submission.id);
}
