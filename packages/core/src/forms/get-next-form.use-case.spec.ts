import { expect } from 'chai';
import { MemoryFormRepository } from '../memory/memory-form.repository.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { newId } from '../shared/ids.js';
import { formRecord } from '../testing/form-fixtures.js';
import type { Form } from './form.js';
import { GetForm } from './get-form.use-case.js';
import { GetNextForm } from './get-next-form.use-case.js';
import { anonymousCaller } from '../testing/callers.js';

describe('GetNextForm and GetForm', () => {
  const setup = async (...forms: Form[]) => {
    const repo = new MemoryFormRepository();
    for (const form of forms) await repo.insert(form);
    return { next: new GetNextForm(repo), get: new GetForm(repo) };
  };
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'resolved', (e: { code: string }) => e.code);

  describe('when the next form is public and active', () => {
    it('returns its public view: no tenantId, notifications, createdBy or captcha.minScore', async () => {
      const target = formRecord('acme', 'step-2', { captcha: { enabled: true, provider: 'hcaptcha', minScore: 0.9 }, createdBy: 'u1' });
      const current = formRecord('acme', 'step-1', { flow: { nextFormId: target.id, previousFormId: null } });
      const { next } = await setup(target, current);
      const { nextForm } = await next.execute(anonymousCaller('acme'), { id: current.id.toUpperCase() });
      expect(nextForm).to.deep.equal({
        id: target.id,
        slug: 'step-2',
        title: target.title,
        description: {},
        submitButtonText: {},
        isActive: true,
        visibility: 'public',
        sections: target.sections,
        captcha: { enabled: true, provider: 'hcaptcha' },
        flow: { nextFormId: null, previousFormId: null },
        createdAt: target.createdAt,
        updatedAt: target.updatedAt,
      });
    });
  });

  describe('when there is no usable next form', () => {
    const cases: Array<[string, (target: Form) => Form[]]> = [
      ['no nextFormId', () => []],
      ['the next form is gone', () => []],
      ['the next form is inactive', (target) => [{ ...target, isActive: false }]],
      ['the next form is internal', (target) => [{ ...target, visibility: 'internal' }]],
    ];
    for (const [name, stored] of cases) {
      it(`answers null when ${name}`, async () => {
        const target = formRecord('acme', 'step-2');
        const nextFormId = name === 'no nextFormId' ? null : target.id;
        const current = formRecord('acme', 'step-1', { flow: { nextFormId, previousFormId: null } });
        const { next } = await setup(current, ...stored(target));
        expect(await next.execute(anonymousCaller('acme'), { id: current.id })).to.deep.equal({ nextForm: null });
      });
    }
  });

  describe('when the current form cannot be found', () => {
    it('answers INVALID_FORM_ID for a malformed id', async () => {
      const { next, get } = await setup();
      expect(await codeOf(next.execute(anonymousCaller('acme'), { id: 'xyz' }))).to.equal(ErrorCodes.INVALID_FORM_ID);
      expect(await codeOf(get.execute(anonymousCaller('acme'), { id: 'g'.repeat(24) }))).to.equal(ErrorCodes.INVALID_FORM_ID);
    });

    it('answers FORM_NOT_FOUND for an unknown id or another tenant’s form', async () => {
      const foreign = formRecord('other', 'theirs');
      const { next, get } = await setup(foreign);
      expect(await codeOf(next.execute(anonymousCaller('acme'), { id: newId() }))).to.equal(ErrorCodes.FORM_NOT_FOUND);
      expect(await codeOf(next.execute(anonymousCaller('acme'), { id: foreign.id }))).to.equal(ErrorCodes.FORM_NOT_FOUND);
      expect(await codeOf(get.execute(anonymousCaller('acme'), { id: foreign.id }))).to.equal(ErrorCodes.FORM_NOT_FOUND);
    });
  });

  describe('GetForm when the form exists', () => {
    it('returns the whole stored form, found case-insensitively', async () => {
      const form = formRecord('acme', 'contact');
      const { get } = await setup(form);
      expect(await get.execute(anonymousCaller('acme'), { id: form.id.toUpperCase() })).to.deep.equal(form);
    });
  });
});
