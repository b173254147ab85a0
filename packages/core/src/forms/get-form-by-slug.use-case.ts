/** §6.2 `GET /forms/getBySlug/{slug}`: the form as by id; a slug that cannot exist is simply not found. */
import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { FORM_LIMITS, type Form } from './form.js';
import type { FormRepository } from './forms.ports.js';
import type { Caller } from '../shared/caller.js';

const SLUG = new RegExp(FORM_LIMITS.slugPattern);

export interface GetFormBySlugInput {
  readonly slug: string;
}

export class GetFormBySlug {
  constructor(private readonly forms: FormRepository) {}

  /** Throws `FORM_NOT_FOUND`. */
  async execute(caller: Caller, { slug }: GetFormBySlugInput): Promise<Form> {
    const form = typeof slug === 'string' && SLUG.test(slug) ? await this.forms.findBySlug(caller.tenantId, slug) : null;
    if (!form) throw new DomainError(ErrorCodes.FORM_NOT_FOUND, 'Form not found');
    return form;
  }
}
