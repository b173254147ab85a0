import { expect } from 'chai';
import { MemoryFormRepository } from '../memory/memory-form.repository.js';
import { MemorySubmissionRepository } from '../memory/memory-submission.repository.js';
import { ManualClock } from '../shared/clock.js';
import { userCaller } from '../testing/callers.js';
import { changedEvents } from '../testing/changed-events.js';
import { domainErrorOf } from '../testing/expect-domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { formRecord, submissionRecord } from '../testing/form-fixtures.js';
import { whileHeld } from '../testing/held-calls.js';
import { ConnectRelation } from './connect-relation.use-case.js';
import { DisconnectRelation } from './disconnect-relation.use-case.js';

const editor = userCaller('acme', 'ed-1', 'editor');

describe('DisconnectRelation', () => {
  describe('when a connect of another id lands in the same millisecond, between its read and its write', () => {
    it('sends no event for an id that was not connected (the store says nothing changed)', async () => {
      const forms = new MemoryFormRepository();
      const submissions = new MemorySubmissionRepository();
      const clock = new ManualClock('2026-03-04T05:06:07.890Z'); // stands still: every write shares its millisecond
      const target = formRecord('acme', 'companies');
      const links = { name: 'links', type: 'relation' as const, label: { en: 'Links' }, required: false, placeholder: {}, relation: { formId: target.id, multiple: true } };
      const source = formRecord('acme', 'people', { sections: [{ title: {}, description: {}, fields: [links] }] });
      await forms.insert(target);
      await forms.insert(source);
      const [one, two] = [submissionRecord('acme', target.id), submissionRecord('acme', target.id)];
      const holder = submissionRecord('acme', source.id, { updatedAt: new Date('2026-03-04T05:06:07.889Z') });
      for (const submission of [one, two, holder]) await submissions.insert(submission);
      const { events, sent } = changedEvents();
      const disconnect = new DisconnectRelation(forms, submissions, clock, events);
      const connect = new ConnectRelation(forms, submissions, clock, events);

      await whileHeld(
        submissions,
        'disconnectRelation',
        () => disconnect.execute(editor, { submissionId: holder.id, fieldName: 'links', relatedSubmissionId: one.id }),
        () => connect.execute(editor, { submissionId: holder.id, fieldName: 'links', relatedSubmissionId: two.id }),
      );
      expect(sent).to.deep.equal(['submission.relation.connected']);
      expect((await submissions.findById('acme', holder.id))?.relations).to.deep.equal({ links: [two.id] });
    });
  });

  describe('when the related submission is not held', () => {
    it('refuses one of another form with RELATED_SUBMISSION_OTHER_FORM, changing nothing, and answers one of the relation’s form unchanged (decision 0813)', async () => {
      const forms = new MemoryFormRepository();
      const submissions = new MemorySubmissionRepository();
      const clock = new ManualClock('2026-03-04T05:06:07.890Z');
      const target = formRecord('acme', 'companies');
      const other = formRecord('acme', 'elsewhere');
      const links = { name: 'links', type: 'relation' as const, label: { en: 'Links' }, required: false, placeholder: {}, relation: { formId: target.id, multiple: true } };
      const source = formRecord('acme', 'people', { sections: [{ title: {}, description: {}, fields: [links] }] });
      for (const form of [target, other, source]) await forms.insert(form);
      const [mine, stranger] = [submissionRecord('acme', target.id), submissionRecord('acme', other.id)];
      const holder = submissionRecord('acme', source.id);
      for (const submission of [mine, stranger, holder]) await submissions.insert(submission);
      const disconnect = new DisconnectRelation(forms, submissions, clock);

      const refusal = await domainErrorOf(disconnect.execute(editor, { submissionId: holder.id, fieldName: 'links', relatedSubmissionId: stranger.id }));
      expect([refusal.code, refusal.message]).to.deep.equal([ErrorCodes.RELATED_SUBMISSION_OTHER_FORM, 'Related submission belongs to another form']);
      expect(await submissions.findById('acme', holder.id)).to.deep.include({ updatedAt: holder.updatedAt, relations: {} });
      const answered = await disconnect.execute(editor, { submissionId: holder.id, fieldName: 'links', relatedSubmissionId: mine.id });
      expect(answered.relations).to.deep.equal({});
    });
  });
});
