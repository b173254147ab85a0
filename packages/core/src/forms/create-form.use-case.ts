/**
 * Form creation (§2.3): applies the defaults, checks the rules of the body and that every
 * referenced form (relation targets, flow) exists in the tenant, then stores the form. Slug
 * uniqueness is decided by the repository's insert, never by a read beforehand, so of two
 * racing creates with one slug exactly one succeeds.
 */
import type { CaptchaPolicy } from '../captcha/captcha.ports.js';
import { NO_WEBHOOK_EVENTS, type WebhookEventRecorder } from '../webhooks/webhook-events.js';
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { newId } from '../shared/ids.js';
import type { LanguageCatalog } from '../shared/languages.js';
import type { CreateFormInput } from './create-form-input.js';
import type { Form } from './form.js';
import type { FormRepository } from './forms.ports.js';
import { requireExistingForms } from './form-references.js';
import { normalizeFormInput } from './normalize-form-input.js';
import { requireTenantId } from '../tenancy/tenant.js';

export class CreateForm {
  constructor(
    private readonly forms: FormRepository,
    private readonly languages: LanguageCatalog,
    private readonly captcha: CaptchaPolicy,
    private readonly clock: Clock,
    private readonly events: WebhookEventRecorder = NO_WEBHOOK_EVENTS,
  ) {}

  /**
   * Any caller holding the tenant's API key may create a form; `createdBy` records the user
   * when one is known. Throws `VALIDATION_FAILED` or `FORM_SLUG_TAKEN`.
   */
  async execute(caller: Caller, input: CreateFormInput): Promise<Form> {
    requireTenantId(caller.tenantId);
    const { definition, references } = normalizeFormInput(input, {
      languages: this.languages.languagesOf(caller.tenantId),
      defaultCaptchaProvider: this.captcha.defaultProvider,
    });
    await requireExistingForms(this.forms, caller.tenantId, references);
    const now = this.clock.now();
    const form: Form = {
      id: newId(now, caller.tenantId),
      tenantId: caller.tenantId,
      ...definition,
      createdBy: caller.user?.id ?? null,
      createdAt: now,
      updatedAt: now,
    };
    return this.events.around({ tenantId: form.tenantId, type: 'form.created', witness: { kind: 'form', id: form.id }, trace: caller.trace }, async () => {
      if (!(await this.forms.insert(form))) throw new DomainError(ErrorCodes.FORM_SLUG_TAKEN, 'Form slug already exists');
      return { result: form, data: form };
    });
  }
}
