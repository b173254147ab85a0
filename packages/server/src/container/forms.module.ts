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
  type CaptchaPolicy,
  type CaptchaVerifier,
  type Clock,
  type FormRepository,
  type LanguageCatalog,
  type Logger,
  type NotificationOutbox,
  type SubmissionRepository,
} from '@cms/core';
import { ContainerModule } from 'inversify';
import { ServerTokens } from './server-tokens.js';

export const formsModule = new ContainerModule(({ bind }) => {
  bind(CreateForm).toResolvedValue(
    (forms: FormRepository, languages: LanguageCatalog, captcha: CaptchaPolicy, clock: Clock) => new CreateForm(forms, languages, captcha, clock),
    [FormRepositoryToken, LanguageCatalogToken, CaptchaPolicyToken, ServerTokens.Clock],
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
    ) => new SubmitForm(forms, submissions, captcha, outbox, clock, logger),
    [FormRepositoryToken, SubmissionRepositoryToken, CaptchaVerifierToken, NotificationOutboxToken, ServerTokens.Clock, ServerTokens.Logger],
  );
  bind(GetSubmission).toResolvedValue((submissions: SubmissionRepository) => new GetSubmission(submissions), [SubmissionRepositoryToken]);
  bind(ConnectRelation).toResolvedValue(
    (forms: FormRepository, submissions: SubmissionRepository, clock: Clock) => new ConnectRelation(forms, submissions, clock),
    [FormRepositoryToken, SubmissionRepositoryToken, ServerTokens.Clock],
  );
  bind(RouteModuleToken).toResolvedValue(
    (create: CreateForm, get: GetForm, getNext: GetNextForm, submit: SubmitForm, getSubmission: GetSubmission, connect: ConnectRelation) =>
      formsRoutes({ create, get, getNext, submit, getSubmission, connect }),
    [CreateForm, GetForm, GetNextForm, SubmitForm, GetSubmission, ConnectRelation],
  );
});
