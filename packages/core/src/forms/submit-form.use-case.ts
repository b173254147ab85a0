/**
 * Form submission (§2.5 companions), in two modes. Public: the form must be active and public,
 * then pass its CAPTCHA gate. Internal: a user is required; public and internal forms, no
 * CAPTCHA. Both then check the values, store the submission, and hand the form's notification
 * jobs to the outbox without waiting: a failing or slow outbox never fails or delays the answer.
 * A submission with jobs is stored with a recovery time, taken off once the jobs are stored: a
 * process that dies in between leaves it for a dispatcher pass to finish (decision 0798).
 */
import { errorText } from '../shared/error-text.js';
import { UNTRACKED_WORK, type BackgroundWork } from '../shared/background-work.js';
import { NO_WEBHOOK_EVENTS, type WebhookEventRecorder } from '../webhooks/webhook-events.js';
import { captchaCallContextOf } from '../captcha/captcha-call-context.js';
import type { CaptchaVerdict, CaptchaVerifier } from '../captcha/captcha.ports.js';
import type { NewNotificationJob, NotificationOutbox } from '../notifications/notification.ports.js';
import { ANYONE, checkAccess, requiresUser } from '../shared/access.js';
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { DomainError, validationError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { newId } from '../shared/ids.js';
import type { Logger } from '../shared/logger.js';
import type { Form } from './form.js';
import type { FormRepository, SubmissionRepository } from './forms.ports.js';
import { findFormOrThrow } from './find-form.js';
import { NOTIFICATION_RECOVERY_AFTER_MS, storeSubmissionJobs, submissionNotificationJobs } from './submission-notification-jobs.js';
import { submissionView, type Submission, type SubmissionView } from './submission.js';
import { validateSubmissionValues } from './validate-submission-values.js';
import { logFieldsOf, type TraceContext } from '../shared/trace-context.js';
import { requireTenantId } from '../tenancy/tenant.js';

export type SubmitMode = 'public' | 'internal';

/** What a form without notifications gives rise to, without an array per submit. */
const NO_JOBS: readonly NewNotificationJob[] = Object.freeze([]);

export interface SubmitFormInput {
  readonly formId: string;
  /** The submission as sent, `{ values: {...} }`, checked here after the form and CAPTCHA checks (paths `submission.values.<field>`). */
  readonly submission: unknown;
  readonly mode: SubmitMode;
  /** The caller's CAPTCHA token, for a form whose CAPTCHA gate is on. */
  readonly captchaToken?: string | undefined;
}

export class SubmitForm {
  /** Who may call, per mode: the one declaration the HTTP routes, OpenAPI and docs/permissions.md follow. */
  static readonly access = { public: ANYONE, internal: requiresUser('UNAUTHORIZED') } as const;

  constructor(
    private readonly forms: FormRepository,
    private readonly submissions: SubmissionRepository,
    private readonly captcha: CaptchaVerifier,
    private readonly outbox: NotificationOutbox,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly events: WebhookEventRecorder = NO_WEBHOOK_EVENTS,
    /** Where the notification enqueue runs after the answer; a host tracks it to wait for it on shutdown. */
    private readonly work: BackgroundWork = UNTRACKED_WORK,
  ) {}

  /**
   * Throws, in this order: (internal) `UNAUTHORIZED`; `INVALID_FORM_ID`, `FORM_NOT_FOUND`,
   * `FORM_INACTIVE`; (public) `FORM_INTERNAL`, `FORM_CAPTCHA_REQUIRED`, `FORM_CAPTCHA_FAILED`;
   * then `VALIDATION_FAILED` for the values.
   */
  async execute(caller: Caller, command: SubmitFormInput): Promise<SubmissionView> {
    requireTenantId(caller.tenantId);
    const { mode } = command;
    // Only the two modes: a name read off the prototype chain (`constructor`) would find an
    // object that is no rule, and pass the caller unchecked.
    if (mode !== 'public' && mode !== 'internal') throw validationError('mode', "must be 'public' or 'internal'");
    checkAccess(caller, SubmitForm.access[mode]);
    const form = await findFormOrThrow(this.forms, caller.tenantId, command.formId);
    if (!form.isActive) throw new DomainError(ErrorCodes.FORM_INACTIVE, 'Form is not active');
    if (mode === 'public') {
      if (form.visibility !== 'public') throw new DomainError(ErrorCodes.FORM_INTERNAL, 'Form is internal');
      await this.#passCaptchaGate(form, command.captchaToken, caller);
    }
    const values = validateSubmissionValues(form, command.submission, 'submission');
    const now = this.clock.now();
    const submission: Submission = {
      id: newId(now, caller.tenantId),
      tenantId: caller.tenantId,
      formId: form.id,
      values,
      relations: {},
      submittedBy: caller.user?.id ?? null,
      createdAt: now,
      updatedAt: now,
    };
    const jobs = form.notifications.enabled ? submissionNotificationJobs(form, submission, caller.trace) : NO_JOBS;
    if (jobs.length > 0) submission.notificationsRecoverAt = new Date(now.getTime() + NOTIFICATION_RECOVERY_AFTER_MS);
    const view = await this.events.around(
      { tenantId: submission.tenantId, type: 'form.submitted', witness: { kind: 'submission', id: submission.id }, trace: caller.trace },
      async () => {
        await this.submissions.insert(submission);
        // The form may have been deleted since it was checked (its cascade would then have missed
        // this submission): one that is gone now takes the submission back (decision 0763).
        if ((await this.forms.findById(caller.tenantId, form.id)) === null) {
          await this.submissions.delete(caller.tenantId, submission.id);
          throw new DomainError(ErrorCodes.FORM_NOT_FOUND, 'Form not found');
        }
        const stored = submissionView.fresh(submission);
        return { result: stored, data: stored };
      },
    );
    this.#enqueueNotifications(submission, jobs, caller.trace);
    return view;
  }

  async #passCaptchaGate(form: Form, token: string | undefined, caller: Caller): Promise<void> {
    if (!form.captcha.enabled) return;
    if (!token) throw new DomainError(ErrorCodes.FORM_CAPTCHA_REQUIRED, 'a CAPTCHA token is required to submit this form');
    // The port promises not to throw; should an adapter do so anyway, the gate stays closed.
    const verdict: CaptchaVerdict = await Promise.resolve()
      .then(() => this.captcha.verify(form.captcha.provider, token, captchaCallContextOf(caller)))
      .catch(() => ({ success: false }));
    const tooLow = verdict.score !== undefined && verdict.score < form.captcha.minScore;
    if (!verdict.success || tooLow) throw new DomainError(ErrorCodes.FORM_CAPTCHA_FAILED, 'CAPTCHA verification failed');
  }

  /**
   * Background work: started now, never awaited by the submit; a failure is logged, never thrown
   * (the submission's recovery time then hands its jobs to a dispatcher pass).
   */
  #enqueueNotifications(submission: Submission, jobs: readonly NewNotificationJob[], trace: TraceContext | undefined): void {
    if (jobs.length === 0) return; // no job to enqueue, no work to start
    this.work.start(async () => {
      try {
        await storeSubmissionJobs({ outbox: this.outbox, submissions: this.submissions }, submission, jobs, submission.createdAt);
      } catch (error) {
        try {
          this.logger.error('notification enqueue failed', {
            tenantId: submission.tenantId,
            formId: submission.formId,
            submissionId: submission.id,
            error: errorText(error),
            ...logFieldsOf(trace),
          });
        } catch {
          // a broken logger must not become an unhandled rejection
        }
      }
    });
  }
}
