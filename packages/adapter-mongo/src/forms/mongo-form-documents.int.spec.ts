/**
 * How forms and submissions are laid out (inspected on the collection double): ObjectId `_id`,
 * every reference to a form or submission an ObjectId, nothing of the domain's `id` duplicated;
 * and what the repositories refuse as bugs rather than write.
 */
import { expect } from 'chai';
import type { FormField } from '@cms/core';
import { formRecord, sampleNotificationJob, submissionRecord } from '@cms/core/testing';
import { newId } from '@cms/core/internal';
import { ObjectId } from 'mongodb';
import { Collections, INDEXES } from '../storage/mongo-collections.js';
import { CommandCounter } from '../testing/command-counter.js';
import { useDocumentLayout } from '../testing/document-layout.js';
import { unservedQuery } from '../testing/index-coverage.js';

describe('Mongo form and submission documents', () => {
  const { db, repos, stored } = useDocumentLayout();
  const [target, previous, related] = [newId(), newId(), newId()];

  describe('when a form is stored', () => {
    it('keeps its id, its relation targets and its flow as ObjectIds, and only the domain fields', async () => {
      const form = formRecord('acme', 'contact', { flow: { nextFormId: target, previousFormId: null } });
      form.sections[0]!.fields.push({ name: 'org', type: 'relation', label: { en: 'Org' }, required: false, placeholder: {}, relation: { formId: target, multiple: true } });
      await repos().forms.insert(form);
      const [document] = stored(Collections.forms);
      expect(document?._id).to.be.instanceOf(ObjectId);
      expect(document?._id.toHexString()).to.equal(form.id);
      expect(Object.keys(document!).sort()).to.deep.equal(
        ['_id', 'captcha', 'createdAt', 'createdBy', 'description', 'flow', 'isActive', 'notifications', 'relationTargets', 'sections', 'slug', 'submitButtonText', 'tenantId', 'title', 'updatedAt', 'visibility'],
      );
      expect(document?.relationTargets).to.deep.equal([{ fieldName: 'org', formId: ObjectId.createFromHexString(target) }]);
      expect(document?.flow).to.deep.equal({ nextFormId: ObjectId.createFromHexString(target), previousFormId: null });
      const [text, , relation] = document?.sections[0].fields;
      expect(relation.relation).to.deep.equal({ formId: ObjectId.createFromHexString(target), multiple: true });
      expect(text).to.not.have.any.keys('options', 'relation');
    });

    it('adds the relation fields of a form stored before `relationTargets` existed at its first update', async () => {
      const org: FormField = { name: 'org', type: 'relation', label: { en: 'Org' }, required: false, placeholder: {}, relation: { formId: target, multiple: true } };
      const form = formRecord('acme', 'older', { sections: [{ title: {}, description: {}, fields: [org] }] });
      await repos().forms.insert(form);
      await db().collectionDouble(Collections.forms).updateOne({ _id: ObjectId.createFromHexString(form.id) }, { $unset: { relationTargets: '' } });
      expect(await repos().forms.relationHoldersOf('acme', target)).to.deep.equal([{ formId: form.id, fieldName: 'org' }]);

      const renamed = { ...form, sections: [{ title: {}, description: {}, fields: [{ ...org, name: 'company' }] }], updatedAt: new Date(form.updatedAt.getTime() + 1) };
      expect(await repos().forms.update(renamed, form.updatedAt)).to.equal('updated');
      expect(stored(Collections.forms)[0]?.relationTargets).to.have.deep.members([
        { fieldName: 'company', formId: ObjectId.createFromHexString(target) },
        { fieldName: 'org', formId: ObjectId.createFromHexString(target) },
      ]);
      expect(await repos().forms.relationHoldersOf('acme', target)).to.have.deep.members([
        { formId: form.id, fieldName: 'org' },
        { formId: form.id, fieldName: 'company' },
      ]);
    });

    it('refuses a second form with a taken id as a bug, not as a taken slug', async () => {
      const form = formRecord('acme', 'contact');
      await repos().forms.insert(form);
      const error = await repos().forms.insert({ ...form, slug: 'other' }).catch((e: Error) => e);
      expect((error as Error).message).to.equal(`duplicate form id ${form.id}`);
      expect(error).not.to.have.property('code');
    });
  });

  describe('when a submission is stored and connected', () => {
    it('keeps its form and its related submissions as ObjectIds', async () => {
      const submission = submissionRecord('acme', target);
      await repos().submissions.insert(submission);
      const connect = (fieldName: string, multiple: boolean) =>
        repos().submissions.connectRelation({ tenantId: 'acme', submissionId: submission.id, fieldName, relatedId: related, multiple, cap: 500, now: new Date() });
      await connect('owner', false);
      await connect('links', true);
      const [document] = stored(Collections.formSubmissions);
      expect(document?._id.toHexString()).to.equal(submission.id);
      expect(Object.keys(document!).sort()).to.deep.equal(['_id', 'createdAt', 'formId', 'relations', 'submittedBy', 'tenantId', 'updatedAt', 'values']);
      expect(document?.formId).to.deep.equal(ObjectId.createFromHexString(target));
      expect(document?.relations).to.deep.equal({ owner: ObjectId.createFromHexString(related), links: [ObjectId.createFromHexString(related)] });
    });
  });

  describe('when an erasure takes an id out of the relations that hold it (decision 0838)', () => {
    // The double accepts any query an index serves, and the holder form's list index serves these
    // too, by reading every submission of the form: each update must be one the wildcard index
    // serves alone, so that it reads the holders of the ids and nothing else.
    it('finds the holders through the relation wildcard index', async () => {
      const holder = { formId: target, fieldName: 'links' };
      const [list, single] = [submissionRecord('acme', target, { relations: { links: [related, previous] } }), submissionRecord('acme', target, { relations: { links: related } })];
      for (const submission of [list, single]) await repos().submissions.insert(submission);
      const counter = CommandCounter.onDouble(db());
      expect(await repos().submissions.removeRelationsTo('acme', holder, [related])).to.equal(2);
      const wildcard = INDEXES.filter((index) => index.name === 'relations_wildcard');
      const updates = counter.documents().filter((command) => command.update === Collections.formSubmissions);
      expect(updates).to.have.length(2);
      for (const { filter } of updates) expect(unservedQuery(wildcard, filter, undefined)).to.equal(null);
      counter.detach();
      expect(stored(Collections.formSubmissions).map((document) => document.relations)).to.deep.equal([{ links: [ObjectId.createFromHexString(previous)] }, {}]);
    });

    // Any tenant-first index "serves" these filters for the double; this one binds every field
    // they filter on, so an erasure reads its submission's jobs and not every job of its form.
    it('drops and lists the erased submission’s notification jobs through `tenant_form_submission`, every filtered field in its keys', async () => {
      const outbox = repos().notificationOutbox;
      const job = sampleNotificationJob();
      await outbox.enqueue([job, sampleNotificationJob({ message: { ...job.message, submissionId: newId() } })], new Date());
      const counter = CommandCounter.onDouble(db());
      expect(await outbox.listBySubmission('acme', job.message.formId, job.message.submissionId)).to.have.length(1);
      expect(await outbox.dropJobs('acme', job.message.formId, job.message.submissionId)).to.equal(1);
      expect(await outbox.dropJobs('acme', job.message.formId)).to.equal(1);
      const [index] = INDEXES.filter((candidate) => candidate.name === 'tenant_form_submission');
      const filters = counter.documents().map(({ filter }) => Object.keys(filter));
      counter.detach();
      expect(filters).to.have.length(3);
      for (const fields of filters) expect(Object.keys(index!.keys).slice(0, fields.length)).to.have.members(fields);
    });
  });

  describe('when a multi-value connect misses and the relation changes before its read says why', () => {
    it('tries again: a full list a disconnect shortened meanwhile takes the id', async () => {
      const [a, b, c] = [newId(), newId(), newId()];
      const submission = submissionRecord('acme', previous, { relations: { links: [a, b] } });
      await repos().submissions.insert(submission);
      const collection = db().collectionDouble(Collections.formSubmissions);
      const write = collection.findOneAndUpdate;
      let misses = 0;
      collection.findOneAndUpdate = async function (this: typeof collection, ...args: Parameters<typeof write>) {
        const result = await write.apply(this, args);
        if (result === null && misses++ === 0) {
          collection.findOneAndUpdate = write;
          await repos().submissions.disconnectRelation({ tenantId: 'acme', submissionId: submission.id, fieldName: 'links', relatedId: b, now: new Date() });
        }
        return result;
      } as typeof write;
      const connect = { tenantId: 'acme', submissionId: submission.id, fieldName: 'links', relatedId: c, multiple: true, cap: 2, now: new Date() };
      const result = await repos().submissions.connectRelation(connect);
      expect(misses).to.equal(1);
      expect(result).to.deep.include({ status: 'connected', relatedExists: false });
      expect((await repos().submissions.findById('acme', submission.id))?.relations).to.deep.equal({ links: [a, c] });
    });
  });

  describe('when a connect names a field that is not a plain field name', () => {
    it('refuses it as a bug rather than writing it into an update path', async () => {
      const submission = submissionRecord('acme', previous);
      await repos().submissions.insert(submission);
      for (const fieldName of ['links.0', '$where', 'a b', '', '_hidden', 'x'.repeat(65)]) {
        for (const multiple of [true, false]) {
          const command = { tenantId: 'acme', submissionId: submission.id, fieldName, relatedId: related, multiple, cap: 500, now: new Date() };
          const error = await repos().submissions.connectRelation(command).catch((e: Error) => e);
          expect((error as Error).message, fieldName).to.match(/^relation field name is not a plain field name/);
        }
      }
      expect(stored(Collections.formSubmissions)[0]?.relations).to.deep.equal({});
    });
  });
});
