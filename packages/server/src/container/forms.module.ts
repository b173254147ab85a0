/** Forms and submissions: their use cases over the storage, CAPTCHA and outbox ports, and their routes. */
import { formsRoutes, RouteModuleToken } from '@cms/adapter-koa';
import {
  CaptchaPolicyToken,
  CaptchaVerifierToken,
  ConnectRelation,
  CreateForm,
  FormRepositoryToken,
  GetForm,
  GetNextForm,
  GetSubmission,
  LanguageCatalogToken,
  NotificationOutboxToken,
  SubmissionRepositoryToken,
  SubmitForm,
  TrackedWork,
  type CaptchaPolicy,
  type CaptchaVerifier,
  type Clock,
  type FormRepository,
  type LanguageCatalog,
  type Logger,
  type NotificationOutbox,
  type SubmissionRepository,
  WebhookEventRecorderToken,
  type WebhookEventRecorder,
} from '@cms/core';
import { ContainerModule } from 'inversify';
import { ServerTokens } from './server-tokens.js';

export const formsModule = new ContainerModule(({ bind }) => {
  bind(CreateForm).toResolvedValue(
    (forms: FormRepository, languages: LanguageCatalog, captcha: CaptchaPolicy, clock: Clock, events: WebhookEventRecorder) =>
      new CreateForm(forms, languages, captcha, clock, events),
    [FormRepositoryToken, LanguageCatalogToken, CaptchaPolicyToken, ServerTokens.Clock, WebhookEventRecorderToken],
  );
  bind(GetForm).toResolvedValue((forms: FormRepository) => new GetForm(forms), [FormRepositoryToken]);
  bind(GetNextForm).toResolvedValue((forms: FormRepository) => new GetNextForm(forms), [FormRepositoryToken]);
  bind(SubmitForm).toResolvedValue(
    (
      forms: FormRepository,
      submissions: SubmissionRepository,
      captcha: CaptchaVerifier,
      outbox: NotificationOutbox,
      clock: Clock,
      logger: Logger,
      events: WebhookEventRecorder,
      work: TrackedWork,
    ) => new SubmitForm(forms, submissions, captcha, outbox, clock, logger, events, work),
    [FormRepositoryToken, SubmissionRepositoryToken, CaptchaVerifierToken, NotificationOutboxToken, ServerTokens.Clock, ServerTokens.Logger, WebhookEventRecorderToken, TrackedWork],
  );
  bind(GetSubmission).toResolvedValue((submissions: SubmissionRepository) => new GetSubmission(submissions), [SubmissionRepositoryToken]);
  bind(ConnectRelation).toResolvedValue(
    (forms: FormRepository, submissions: SubmissionRepository, clock: Clock, events: WebhookEventRecorder) =>
      new ConnectRelation(forms, submissions, clock, events),
    [FormRepositoryToken, SubmissionRepositoryToken, ServerTokens.Clock, WebhookEventRecorderToken],
  );
  bind(RouteModuleToken).toResolvedValue(
    (create: CreateForm, get: GetForm, getNext: GetNextForm, submit: SubmitForm, getSubmission: GetSubmission, connect: ConnectRelation) =>
      formsRoutes({ create, get, getNext, submit, getSubmission, connect }),
    [CreateForm, GetForm, GetNextForm, SubmitForm, GetSubmission, ConnectRelation],
  );
});
