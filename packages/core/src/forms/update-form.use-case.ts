/**
 * §6.3 `PATCH /forms/update/{id}` (API key, as create): a strict partial create body over the
 * stored form, then every rule of create on the result (`normalizeFormInput`, references in the
 * tenant, unique slug: `FORM_SLUG_TAKEN`, also under races), except that what the stored form
 * already has is not refused for a change around it: a reference to a form deleted since, a text
 * in a language no longer configured. `sections` replaces the whole list;
 * each other top-level property replaces its stored value; `null` is its default. A form cannot
 * name itself in `flow`. Stored submissions keep their values.
 */
import type { CaptchaPolicy } from '../captcha/captcha.ports.js';
import { NO_WEBHOOK_EVENTS, updatedEvent, type WebhookEventRecorder } from '../webhooks/webhook-events.js';
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { conditionalUpdate, patched, patchOf, type UpdateInput } from '../shared/conditional-update.js';
import { DomainError, validationError } from '../shared/domain-error.js';
import { nextUpdatedAt } from '../shared/entity-tag.js';
import { ErrorCodes } from '../shared/error-codes.js';
import type { LanguageCatalog } from '../shared/languages.js';
import { sharingUnchanged } from '../shared/unchanged-parts.js';
import type { CreateFormInput } from './create-form-input.js';
import { requireFormId } from './find-form.js';
import { RELATION_HISTORY_MAX, textLanguagesOf, type Form } from './form.js';
import { madeBy, requireExistingForms } from './form-references.js';
import type { FormRepository } from './forms.ports.js';
import { normalizeFormInput } from './normalize-form-input.js';
import { requireTenantId } from '../tenancy/tenant.js';

/** Every property a create body may have: what an update may change. */
export const FORM_INPUT_KEYS = [
  'title',
  'slug',
  'sections',
  'description',
  'submitButtonText',
  'isActive',
  'visibility',
  'captcha',
  'notifications',
  'flow',
] as const;

export class UpdateForm {
  constructor(
    private readonly forms: FormRepository,
    private readonly languages: LanguageCatalog,
    private readonly captcha: CaptchaPolicy,
    private readonly clock: Clock,
    private readonly events: WebhookEventRecorder = NO_WEBHOOK_EVENTS,
  ) {}

  /** Throws `INVALID_FORM_ID`, `FORM_NOT_FOUND`, `PRECONDITION_FAILED`, `VALIDATION_FAILED` or `FORM_SLUG_TAKEN`. */
  async execute(caller: Caller, request: UpdateInput): Promise<Form> {
    const { id: formId, changes: body } = request;
    requireTenantId(caller.tenantId);
    const id = requireFormId(formId);
    const languages = this.languages.languagesOf(caller.tenantId);
    const { defaultProvider } = this.captcha;
    return conditionalUpdate(body, request, {
      key: `form\0${caller.tenantId}\0${id}`,
      read: () => this.forms.findById(caller.tenantId, id),
      notFound: () => new DomainError(ErrorCodes.FORM_NOT_FOUND, 'Form not found'),
      view: (form) => form,
      build: async (current) => {
        const patch = patchOf(body, FORM_INPUT_KEYS);
        const input = patched(formAsInput(current), patch);
        let storedLanguages: Set<string> | undefined; // worked out only when a language is not configured
        const { definition, references } = normalizeFormInput(input, {
          languages,
          defaultCaptchaProvider: defaultProvider,
          // A language taken out of CMS_LANGUAGES since stays accepted in the forms that use it (0762).
          keepsLanguage: (language) => (storedLanguages ??= textLanguagesOf(current)).has(language),
          // The stored submitter field may be create's default for the old sections: it follows them while unused (0762).
          ...(patch.notifications === undefined ? { keptSubmitterField: current.notifications.email.submitter.enabled ? 'refuse' : 'default' } : {}),
        });
        for (const key of ['nextFormId', 'previousFormId'] as const) {
          if (definition.flow[key] === id) throw validationError(`flow.${key}`, 'must not name the form itself');
        }
        // A reference the form already made stands even when its form was deleted since (0762).
        await requireExistingForms(this.forms, caller.tenantId, references, (reference) => madeBy(current, reference));
        // The parts the patch left as they were stay the stored ones (the store then shares them).
        return { ...current, ...sharingUnchanged(definition, current), updatedAt: nextUpdatedAt(current.updatedAt, this.clock.now()) };
      },
      // `form.updated` is staged with the `updatedAt` this write stores; a write that lost a race discards it.
      write: (next, expected) =>
        this.events.around(updatedEvent(caller, 'form.updated', 'form', id, next.updatedAt), async () => {
          const outcome = await this.forms.update(next, expected);
          if (outcome === 'slugTaken') throw new DomainError(ErrorCodes.FORM_SLUG_TAKEN, 'Form slug already exists');
          if (outcome === 'relationHistoryFull') {
            throw validationError('sections', `would make this form one that has had more than ${RELATION_HISTORY_MAX} relation fields (renamed and removed ones count until the form is deleted): create a new form`);
          }
          return outcome === 'updated' ? { result: true, data: next } : { result: false };
        }),
    });
  }
}

/** A stored form as the create body that would make it (a stored definition is a valid body). */
function formAsInput(form: Form): CreateFormInput {
  const { slug, title, description, submitButtonText, isActive, visibility, sections, captcha, notifications, flow } = form;
  return { slug, title, description, submitButtonText, isActive, visibility, sections, captcha, notifications, flow };
}
