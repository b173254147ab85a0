import { expect } from 'chai';
import { MemoryFormRepository } from '../memory/memory-form.repository.js';
import { MemoryNotificationOutbox } from '../memory/memory-notification-outbox.js';
import { MemorySubmissionRepository } from '../memory/memory-submission.repository.js';
import { systemClock } from '../shared/clock.js';
import { userCaller } from '../testing/callers.js';
import { domainErrorOf } from '../testing/expect-domain-error.js';
import { formRecord, submissionRecord } from '../testing/form-fixtures.js';
import { DeleteForm } from './delete-form.use-case.js';
import { DeleteSubmission } from './delete-submission.use-case.js';
import { ConnectRelation } from './connect-relation.use-case.js';
import { whileHeld } from '../testing/held-calls.js';

const editor = userCaller('acme', 'e1', 'editor');

describe('DeleteForm', () => {
  const setup = async () => {
    const forms = new MemoryFormRepository();
    const submissions = new MemorySubmissionRepository();
    const outbox = new MemoryNotificationOutbox();
    const target = formRecord('acme', 'target');
    const holder = formRecord('acme', 'holder', {
      sections: [{ title: {}, description: {}, fields: [{ name: 'link', type: 'relation', label: { en: 'L' }, required: false, placeholder: {}, relation: { formId: target.id, multiple: true } }] }],
    });
    await forms.insert(target);
    await forms.insert(holder);
    const owned = [submissionRecord('acme', target.id), submissionRecord('acme', target.id)];
    for (const submission of owned) await submissions.insert(submission);
    const holding = submissionRecord('acme', holder.id, { relations: { link: owned.map((s) => s.id) } });
    await submissions.insert(holding);
    const message = { formId: target.id, formSlug: 'target', formTitle: {}, submissionId: owned[0]!.id, values: { email: 'a@b.co' }, submittedBy: null, submittedAt: new Date() };
    await outbox.enqueue([{ tenantId: 'acme', channel: 'push', audience: 'admin', recipients: [], message }], new Date());
    return { forms, submissions, outbox, target, holder, owned, holding };
  };

  describe('when the form has more submissions than one page of the cascade', () => {
    it('takes every page’s ids out of the relations that hold them, the last page’s too', async () => {
      const { forms, submissions, outbox, target, owned, holding } = await setup();
      const more = Array.from({ length: 499 }, () => submissionRecord('acme', target.id)); // 501 with the two of setup
      for (const submission of more) await submissions.insert(submission);
      const newest = more[more.length - 1]!;
      await new ConnectRelation(forms, submissions, systemClock).execute(editor, { submissionId: holding.id, fieldName: 'link', relatedSubmissionId: newest.id });
      expect((await submissions.findById('acme', holding.id))?.relations).to.deep.equal({ link: [...owned.map((s) => s.id), newest.id] });
      await new DeleteForm(forms, submissions, outbox, systemClock).execute(editor, { id: target.id });
      expect((await submissions.findById('acme', holding.id))?.relations).to.deep.equal({ link: [] });
      expect(await submissions.findById('acme', newest.id)).to.equal(null);
    });
  });

  describe('when two deletes of the form race', () => {
    it('answers the one that deleted it and FORM_NOT_FOUND to the other', async () => {
      const { forms, submissions, outbox, target } = await setup();
      const remove = () => new DeleteForm(forms, submissions, outbox, systemClock).execute(editor, { id: target.id });
      let second: Promise<void> | undefined;
      const first = await domainErrorOf(whileHeld(forms, 'delete', remove, () => (second = remove())));
      await second;
      expect(first.code).to.equal('FORM_NOT_FOUND');
      expect(await forms.findById('acme', target.id)).to.equal(null);
    });
  });

  describe('when a step fails half-way', () => {
    it('leaves the form readable (inactive) and a retry of the same delete finishes the job', async () => {
      const { forms, submissions, outbox, target, owned, holding } = await setup();
      submissions.deleteByForm = async () => {
        throw new Error('killed half-way');
      };
      const error = await new DeleteForm(forms, submissions, outbox, systemClock).execute(editor, { id: target.id }).catch((e: Error) => e);
      expect((error as Error).message).to.equal('killed half-way');
      expect(await forms.findById('acme', target.id)).to.deep.include({ isActive: false });
      expect((await submissions.findById('acme', holding.id))?.relations).to.deep.equal({ link: [] });

      delete (submissions as Partial<MemorySubmissionRepository>).deleteByForm; // the process restarted: the real method again
      await new DeleteForm(forms, submissions, outbox, systemClock).execute(editor, { id: target.id });
      expect(await forms.findById('acme', target.id)).to.equal(null);
      for (const submission of owned) expect(await submissions.findById('acme', submission.id)).to.equal(null);
      expect(await outbox.listByTenant('acme')).to.deep.equal([]);
      expect((await domainErrorOf(new DeleteForm(forms, submissions, outbox, systemClock).execute(editor, { id: target.id }))).code).to.equal('FORM_NOT_FOUND');
    });
  });

  describe('when a connect to one of its submissions lands between the clean-up of the relations and the delete', () => {
    it('takes the id out after the delete too: no relation is left naming a deleted submission', async () => {
      const { forms, submissions, outbox, target, owned, holding } = await setup();
      const connect = new ConnectRelation(forms, submissions, systemClock);
      const deleting = whileHeld(submissions, 'deleteByIds', () => new DeleteForm(forms, submissions, outbox, systemClock).execute(editor, { id: target.id }), async () => {
        expect((await submissions.findById('acme', holding.id))?.relations).to.deep.equal({ link: [] });
        const connected = await connect.execute(editor, { submissionId: holding.id, fieldName: 'link', relatedSubmissionId: owned[0]!.id });
        expect(connected.relations).to.deep.equal({ link: [owned[0]!.id] });
      });
      await deleting;
      expect(await submissions.findById('acme', owned[0]!.id)).to.equal(null);
      expect((await submissions.findById('acme', holding.id))?.relations).to.deep.equal({ link: [] });
    });
  });

  describe('when a form update points a relation field at it while it goes, and a connect uses that field', () => {
    /** `late` gains a field targeting `target` and one of its submissions connects `owned[0]`, while `method` of the delete is held. */
    const raceThroughNewField = async (method: 'deleteByIds' | 'deleteByForm', withHolder: boolean) => {
      const f = await setup();
      if (!withHolder) await f.forms.delete('acme', f.holder.id);
      const late = formRecord('acme', 'late');
      await f.forms.insert(late);
      const lateSubmission = submissionRecord('acme', late.id);
      await f.submissions.insert(lateSubmission);
      const connect = new ConnectRelation(f.forms, f.submissions, systemClock);
      await whileHeld(f.submissions, method, () => new DeleteForm(f.forms, f.submissions, f.outbox, systemClock).execute(editor, { id: f.target.id }), async () => {
        const field = { name: 'pick', type: 'relation', label: { en: 'P' }, required: false, placeholder: {}, relation: { formId: f.target.id, multiple: true } } as const;
        const updated = { ...late, sections: [{ title: {}, description: {}, fields: [field] }], updatedAt: new Date(late.updatedAt.getTime() + 1) };
        expect(await f.forms.update(updated, late.updatedAt)).to.equal('updated');
        const connected = await connect.execute(editor, { submissionId: lateSubmission.id, fieldName: 'pick', relatedSubmissionId: f.owned[0]!.id });
        expect(connected.relations).to.deep.equal({ pick: [f.owned[0]!.id] });
      });
      expect(await f.submissions.findById('acme', f.owned[0]!.id)).to.equal(null);
      return (await f.submissions.findById('acme', lateSubmission.id))!.relations;
    };

    it('finds the field after the delete and takes out what it names of the deleted submissions (form with holders)', async () => {
      expect(await raceThroughNewField('deleteByIds', true)).to.deep.equal({ pick: [] });
    });

    it('does so too when no field targeted the form when its delete began', async () => {
      expect(await raceThroughNewField('deleteByForm', false)).to.deep.equal({ pick: [] });
    });
  });

  describe('when the If-Match names an older version', () => {
    it('answers PRECONDITION_FAILED and changes nothing', async () => {
      const { forms, submissions, outbox, target } = await setup();
      const error = await domainErrorOf(new DeleteForm(forms, submissions, outbox, systemClock).execute(editor, { id: target.id, ifMatch: '"old"' }));
      expect(error.code).to.equal('PRECONDITION_FAILED');
      expect(await forms.findById('acme', target.id)).to.deep.include({ isActive: true });
    });
  });
});

describe('DeleteSubmission', () => {
  it('drops only that submission’s notification jobs, sent ones too; a member is FORBIDDEN', async () => {
    const forms = new MemoryFormRepository();
    const submissions = new MemorySubmissionRepository();
    const outbox = new MemoryNotificationOutbox();
    const form = formRecord('acme', 'f');
    await forms.insert(form);
    const [gone, kept] = [submissionRecord('acme', form.id), submissionRecord('acme', form.id)];
    await submissions.insert(gone);
    await submissions.insert(kept);
    const job = (submissionId: string) => ({
      tenantId: 'acme',
      channel: 'push' as const,
      audience: 'admin' as const,
      recipients: [],
      message: { formId: form.id, formSlug: 'f', formTitle: {}, submissionId, values: {}, submittedBy: null, submittedAt: new Date() },
    });
    await outbox.enqueue([job(gone.id), job(kept.id)], new Date());
    // Both sent: a sent job's message still carries the values the erasure must not keep.
    for (const claimed of await outbox.claimDue(new Date(), 60_000, 10)) await outbox.complete(claimed.id, { status: 'sent' }, new Date());
    const remove = new DeleteSubmission(forms, submissions, outbox);
    expect((await domainErrorOf(remove.execute(userCaller('acme', 'm', 'member'), { id: gone.id }))).code).to.equal('FORBIDDEN');
    await remove.execute(editor, { id: gone.id });
    expect((await outbox.listByTenant('acme')).map((j) => j.message.submissionId)).to.deep.equal([kept.id]);
  });
});
