import { expect } from 'chai';
import { FORM_LIMITS, RELATION_HISTORY_MAX, type Form, type FormField } from '../../forms/form.js';
import type { FormRepository } from '../../forms/forms.ports.js';
import { newId } from '../../shared/ids.js';
import { formRecord } from '../form-fixtures.js';
import { tryToChange, useRepository, type RepositoryFactory } from './contract-fixture.js';

/** A relation field named `name` whose values are ids of `formId`'s submissions. */
function relationField(name: string, formId: string): FormField {
  return { name, type: 'relation', label: { en: name }, required: false, placeholder: {}, relation: { formId, multiple: true } };
}

/** A form whose sections hold the given fields (a relation's holders can sit in any section). */
function formWith(tenantId: string, slug: string, ...sections: FormField[][]) {
  return formRecord(tenantId, slug, { sections: sections.map((fields) => ({ title: {}, description: {}, fields })) });
}

/** The behaviour every FormRepository must show: lookups, per-tenant slug uniqueness under races, isolation, copies, relation holders. */
export function formRepositoryContract(name: string, factory: RepositoryFactory<FormRepository>): void {
  describe(`FormRepository contract: ${name}`, () => {
    const repo = useRepository(factory);

    it('finds a form by its slug in its tenant only (§6.2)', async () => {
      const form = formRecord('acme', 'by-slug');
      await repo().insert(form);
      await repo().insert(formRecord('other', 'elsewhere'));
      expect(await repo().findBySlug('acme', 'by-slug')).to.deep.equal(form);
      expect(await repo().findBySlug('other', 'by-slug')).to.equal(null);
      expect(await repo().findBySlug('acme', 'elsewhere')).to.equal(null);
      expect(await repo().findBySlug('acme', 'BY-SLUG')).to.equal(null);
    });

    it('stores a form and finds it by id, whole', async () => {
      const form = formRecord('acme', 'contact', {
        sections: [
          {
            title: { en: 'About you' },
            description: {},
            fields: [
              { name: 'plan', type: 'select', label: { en: 'Plan' }, required: true, placeholder: {}, options: [{ value: 'pro', label: { en: 'Pro' } }] },
              { name: 'company', type: 'relation', label: { en: 'Company' }, required: false, placeholder: {}, relation: { formId: newId(), multiple: true } },
              { name: 'note', type: 'textarea', label: { en: 'Note' }, required: false, placeholder: { en: 'Anything else?' } },
            ],
          },
        ],
        createdBy: 'u1',
      });
      expect(await repo().insert(form)).to.equal(true);
      expect(await repo().findById('acme', form.id)).to.deep.equal(form);
    });

    it('answers null for an unknown id and for another tenant’s form', async () => {
      const form = formRecord('acme', 'contact');
      await repo().insert(form);
      expect(await repo().findById('acme', newId())).to.equal(null);
      expect(await repo().findById('other', form.id)).to.equal(null);
    });

    it('treats a malformed id as matching nothing, without throwing', async () => {
      const form = formRecord('acme', 'contact');
      await repo().insert(form);
      expect(await repo().findById('acme', 'not-an-id')).to.equal(null);
      expect(await repo().findById('acme', `${form.id}0`)).to.equal(null);
      expect(await repo().existingIds('acme', ['xyz', form.id, 'g'.repeat(24)])).to.deep.equal([form.id]);
    });

    it('refuses a second form with a slug the tenant already uses, storing nothing', async () => {
      const first = formRecord('acme', 'contact');
      const second = formRecord('acme', 'contact');
      expect(await repo().insert(first)).to.equal(true);
      expect(await repo().insert(second)).to.equal(false);
      expect(await repo().findById('acme', second.id)).to.equal(null);
      expect((await repo().findById('acme', first.id))?.id).to.equal(first.id);
    });

    it('lets exactly one of six racing inserts with one slug win', async () => {
      const forms = Array.from({ length: 6 }, () => formRecord('acme', 'race'));
      const results = await Promise.all(forms.map((form) => repo().insert(form)));
      expect(results.filter(Boolean)).to.have.length(1);
      const stored = await Promise.all(forms.map((form) => repo().findById('acme', form.id)));
      expect(stored.filter((form) => form !== null)).to.have.length(1);
      expect(forms[results.indexOf(true)]!.id).to.equal(stored.find((form) => form !== null)!.id);
    });

    it('lets another tenant use the same slug', async () => {
      expect(await repo().insert(formRecord('acme', 'contact'))).to.equal(true);
      expect(await repo().insert(formRecord('other', 'contact'))).to.equal(true);
    });

    it('tells which ids are forms of the tenant', async () => {
      const a = formRecord('acme', 'a');
      const b = formRecord('acme', 'b');
      const foreign = formRecord('other', 'c');
      for (const form of [a, b, foreign]) await repo().insert(form);
      const found = await repo().existingIds('acme', [a.id, foreign.id, newId(), a.id, b.id]);
      expect(found).to.have.members([a.id, b.id]);
      expect(found).to.have.length(2);
      expect(await repo().existingIds('acme', [])).to.deep.equal([]);
    });

    it('finds the relation fields that target a form, in any form and section of its tenant only', async () => {
      const target = formRecord('acme', 'companies');
      const elsewhere = formRecord('acme', 'people');
      const holder = formWith('acme', 'deals', [relationField('buyer', target.id)], [relationField('seller', target.id), relationField('broker', elsewhere.id)]);
      const self = formWith('acme', 'self', [relationField('parent', target.id)]);
      const foreign = formWith('other', 'deals', [relationField('buyer', target.id)]);
      for (const form of [target, elsewhere, holder, self, foreign]) await repo().insert(form);
      const holders = await repo().relationHoldersOf('acme', target.id);
      expect(holders).to.have.deep.members([
        { formId: holder.id, fieldName: 'buyer' },
        { formId: holder.id, fieldName: 'seller' },
        { formId: self.id, fieldName: 'parent' },
      ]);
      expect(holders).to.have.length(3);
      expect(await repo().relationHoldersOf('acme', elsewhere.id)).to.deep.equal([{ formId: holder.id, fieldName: 'broker' }]);
      expect(await repo().relationHoldersOf('acme', holder.id)).to.deep.equal([]);
      expect(await repo().relationHoldersOf('other', elsewhere.id)).to.deep.equal([]);
      expect(await repo().relationHoldersOf('acme', 'not-an-id')).to.deep.equal([]);
    });

    it('refuses an update that would make the relation fields a form has had more than RELATION_HISTORY_MAX, writing nothing', async () => {
      const target = formRecord('acme', 'companies');
      // The most relation fields a form can hold at once (50 sections of 200), named after `prefix`.
      const allRelations = (prefix: string) =>
        Array.from({ length: FORM_LIMITS.sectionsMax }, (_, s) => Array.from({ length: FORM_LIMITS.fieldsMax }, (_, i) => relationField(`${prefix}${s}_${i}`, target.id)));
      const first = formWith('acme', 'renamed-often', ...allRelations('a'));
      for (const form of [target, first]) await repo().insert(form);
      const next = (form: Form, prefix: string): Form => ({ ...form, sections: formWith('acme', form.slug, ...allRelations(prefix)).sections, updatedAt: new Date(form.updatedAt.getTime() + 1) });
      const second = next(first, 'b');
      expect(await repo().update(second, first.updatedAt)).to.equal('updated'); // 2 × 10,000: the most
      const third = next(second, 'c');
      expect(await repo().update(third, second.updatedAt)).to.equal('relationHistoryFull');
      expect((await repo().findById('acme', first.id))!.sections[0]!.fields[0]!.name).to.equal('b0_0');
      expect(await repo().relationHoldersOf('acme', target.id)).to.have.length(RELATION_HISTORY_MAX);
      // Fields it has had already add nothing: the form goes back to its first names.
      expect(await repo().update(next(second, 'a'), second.updatedAt)).to.equal('updated');
      expect(RELATION_HISTORY_MAX).to.equal(2 * FORM_LIMITS.sectionsMax * FORM_LIMITS.fieldsMax);
    });

    it('follows updates and deletes of the holding forms, keeping a field an update renamed, retargeted or dropped', async () => {
      const target = formRecord('acme', 'companies');
      const people = formRecord('acme', 'people');
      const holder = formWith('acme', 'deals', [relationField('buyer', target.id)]);
      const later = formRecord('acme', 'contacts');
      for (const form of [target, people, holder, later]) await repo().insert(form);
      const next = <F extends Form>(form: F, fields: FormField[]): F => ({ ...form, sections: [{ title: {}, description: {}, fields }], updatedAt: new Date(form.updatedAt.getTime() + 1) });

      // Old submissions keep what `buyer` holds (§6.3): it stays a holder after the rename.
      const renamed = next(holder, [relationField('vendor', target.id)]);
      expect(await repo().update(renamed, holder.updatedAt)).to.equal('updated');
      const gained = next(later, [relationField('employer', target.id)]);
      expect(await repo().update(gained, later.updatedAt)).to.equal('updated');
      expect(await repo().relationHoldersOf('acme', target.id)).to.have.deep.members([
        { formId: holder.id, fieldName: 'buyer' },
        { formId: holder.id, fieldName: 'vendor' },
        { formId: later.id, fieldName: 'employer' },
      ]);

      expect(await repo().update({ ...holder, updatedAt: new Date(0) }, holder.updatedAt)).to.equal('stale'); // a stale update changes nothing
      expect(await repo().delete('acme', later.id)).to.equal(true);
      const retargeted = next(renamed, [relationField('vendor', people.id), relationField('buyer', target.id)]);
      expect(await repo().update(retargeted, renamed.updatedAt)).to.equal('updated');
      const dropped = next(retargeted, formRecord('acme', 'x').sections[0]!.fields);
      expect(await repo().update(dropped, retargeted.updatedAt)).to.equal('updated');
      const holders = await repo().relationHoldersOf('acme', target.id);
      expect(holders).to.have.deep.members([
        { formId: holder.id, fieldName: 'buyer' },
        { formId: holder.id, fieldName: 'vendor' },
      ]);
      expect(holders).to.have.length(2);
      expect(await repo().relationHoldersOf('acme', people.id)).to.deep.equal([{ formId: holder.id, fieldName: 'vendor' }]);

      expect(await repo().delete('acme', holder.id)).to.equal(true);
      expect(await repo().relationHoldersOf('acme', target.id)).to.deep.equal([]);
      expect(await repo().relationHoldersOf('acme', people.id)).to.deep.equal([]);
    });

    it('returns records that never change the store when changed', async () => {
      const form = formRecord('acme', 'contact');
      await repo().insert(form);
      form.title.en = 'changed after insert';
      const found = await repo().findById('acme', form.id);
      tryToChange(() => (found!.sections[0]!.fields.length = 0));
      const again = await repo().findById('acme', form.id);
      expect(again?.title.en).to.equal('Form contact');
      expect(again?.sections[0]?.fields).to.have.length(2);
    });
  });
}
