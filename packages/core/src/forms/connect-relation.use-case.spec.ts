import { expect } from 'chai';
import { anonymousCaller } from '../testing/callers.js';
import { MemoryFormRepository } from '../memory/memory-form.repository.js';
import { MemorySubmissionRepository } from '../memory/memory-submission.repository.js';
import { ManualClock } from '../shared/clock.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { newId } from '../shared/ids.js';
import { formRecord, submissionRecord } from '../testing/form-fixtures.js';
import { ConnectRelation, type RelationInput } from './connect-relation.use-case.js';

const ACME = anonymousCaller('acme');
import type { FormField } from './form.js';
import { GetSubmission } from './get-submission.use-case.js';
import { relatedIdCount } from './relation-holders.js';
import { RELATION_CAP, RELATION_TOTAL_CAP } from './submission.js';

describe('ConnectRelation and GetSubmission', () => {
  const setup = async () => {
    const forms = new MemoryFormRepository();
    const submissions = new MemorySubmissionRepository();
    const clock = new ManualClock('2026-03-04T05:06:07.890Z');
    const company = formRecord('acme', 'company');
    const other = formRecord('acme', 'other');
    const relationField = (name: string, multiple: boolean): FormField => ({
      name,
      type: 'relation',
      label: { en: name },
      required: false,
      placeholder: {},
      relation: { formId: company.id, multiple },
    });
    const person = formRecord('acme', 'person', {
      sections: [
        {
          title: {},
          description: {},
          fields: [
            { name: 'name', type: 'text', label: { en: 'Name' }, required: true, placeholder: {} },
            relationField('employer', false),
            relationField('clients', true),
          ],
        },
      ],
    });
    for (const form of [company, other, person]) await forms.insert(form);
    const source = submissionRecord('acme', person.id);
    const acme = submissionRecord('acme', company.id);
    const globex = submissionRecord('acme', company.id);
    const stranger = submissionRecord('acme', other.id);
    const foreignCompany = submissionRecord('other-tenant', company.id);
    for (const submission of [source, acme, globex, stranger, foreignCompany]) await submissions.insert(submission);
    const connect = new ConnectRelation(forms, submissions, clock);
    const input = (fieldName: string, relatedSubmissionId: string, submissionId = source.id): RelationInput => ({
      submissionId,
      fieldName,
      relatedSubmissionId,
    });
    return { connect, get: new GetSubmission(submissions), submissions, clock, source, acme, globex, stranger, foreignCompany, company, input };
  };
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'resolved', (e: { code?: string }) => e.code ?? String(e));

  describe('when the relation is single-value', () => {
    it('sets the related id, then replaces it', async () => {
      const { connect, clock, source, acme, globex, input } = await setup();
      const first = await connect.execute(ACME, input('employer', acme.id));
      expect(first.relations).to.deep.equal({ employer: acme.id });
      clock.advance(1000);
      const second = await connect.execute(ACME, input('employer', globex.id.toUpperCase()));
      expect(second).to.deep.equal({
        id: source.id,
        formId: source.formId,
        values: source.values,
        relations: { employer: globex.id },
        submittedBy: null,
        createdAt: source.createdAt,
        updatedAt: new Date('2026-03-04T05:06:08.890Z'),
      });
    });
  });

  describe('when the relation is multi-value', () => {
    it('appends each id once', async () => {
      const { connect, get, acme, globex, source, input } = await setup();
      await connect.execute(ACME, input('clients', acme.id));
      await connect.execute(ACME, input('clients', globex.id));
      const again = await connect.execute(ACME, input('clients', acme.id));
      expect(again.relations).to.deep.equal({ clients: [acme.id, globex.id] });
      expect((await get.execute(anonymousCaller('acme'), { id: source.id })).relations).to.deep.equal({ clients: [acme.id, globex.id] });
    });

    it('keeps all of twelve concurrent connects', async () => {
      const { connect, get, submissions, company, source, input } = await setup();
      const related = Array.from({ length: 12 }, () => submissionRecord('acme', company.id));
      for (const submission of related) await submissions.insert(submission);
      await Promise.all(related.map((submission) => connect.execute(ACME, input('clients', submission.id))));
      const clients = (await get.execute(anonymousCaller('acme'), { id: source.id })).relations.clients;
      expect(clients).to.have.members(related.map((submission) => submission.id));
    });

    it(`refuses a new id once ${RELATION_CAP} are connected`, async () => {
      const { connect, submissions, company, source, input } = await setup();
      const ids = Array.from({ length: RELATION_CAP }, () => newId());
      for (const id of ids) {
        await submissions.connectRelation({ tenantId: 'acme', submissionId: source.id, fieldName: 'clients', relatedId: id, multiple: true, cap: RELATION_CAP, now: new Date() });
      }
      const extra = submissionRecord('acme', company.id);
      await submissions.insert(extra);
      const error = await connect.execute(ACME, input('clients', extra.id)).catch((e: { code: string; message: string }) => e);
      expect(error).to.include({ code: ErrorCodes.VALIDATION_FAILED, message: `relations.clients already holds the maximum of ${RELATION_CAP} related submissions` });
    });
  });

  describe(`when the submission holds ${RELATION_TOTAL_CAP} related ids over all its fields`, () => {
    /** A source whose relations hold `total` ids: some in the form's fields, the rest in fields its form no longer has. */
    const holding = async (total: number, relationsOf: (context: Awaited<ReturnType<typeof setup>>) => Record<string, string | string[]> = () => ({})) => {
      const context = await setup();
      const relations = relationsOf(context);
      const held = relatedIdCount(relations);
      const history = Object.fromEntries(Array.from({ length: Math.ceil((total - held) / RELATION_CAP) }, (_, i) => [`former${i}`, Array.from({ length: Math.min(RELATION_CAP, total - held - i * RELATION_CAP) }, () => newId())]));
      const source = submissionRecord('acme', context.source.formId, { relations: { ...history, ...relations } });
      await context.submissions.insert(source);
      expect(relatedIdCount(source.relations)).to.equal(total);
      return { ...context, source };
    };
    const TOTAL_MESSAGE = `relations already hold the maximum of ${RELATION_TOTAL_CAP} related submissions over all fields`;

    it('refuses an id that a multi-value field does not hold yet, and one for an empty single-value field', async () => {
      const { connect, source, acme, input, get } = await holding(RELATION_TOTAL_CAP);
      for (const field of ['clients', 'employer']) {
        const error = await connect.execute(ACME, input(field, acme.id, source.id)).catch((e: { code: string; message: string }) => e);
        expect(error, field).to.include({ code: ErrorCodes.VALIDATION_FAILED, message: TOTAL_MESSAGE });
      }
      expect(relatedIdCount((await get.execute(ACME, { id: source.id })).relations)).to.equal(RELATION_TOTAL_CAP);
    });

    it('takes what adds no id: an id the field holds, a single value replaced', async () => {
      const { connect, source, acme, globex, input } = await holding(RELATION_TOTAL_CAP, ({ acme }) => ({ clients: [acme.id], employer: acme.id }));
      expect((await connect.execute(ACME, input('clients', acme.id, source.id))).relations.clients).to.deep.equal([acme.id]);
      expect((await connect.execute(ACME, input('employer', globex.id, source.id))).relations.employer).to.equal(globex.id);
    });

    it('takes a new id while one place is left', async () => {
      const { connect, source, acme, input } = await holding(RELATION_TOTAL_CAP - 1);
      const connected = await connect.execute(ACME, input('clients', acme.id, source.id));
      expect(relatedIdCount(connected.relations)).to.equal(RELATION_TOTAL_CAP);
    });

    it('checks the other form before the total', async () => {
      const { connect, source, stranger, input } = await holding(RELATION_TOTAL_CAP);
      expect(await codeOf(connect.execute(ACME, input('clients', stranger.id, source.id)))).to.equal(ErrorCodes.RELATED_SUBMISSION_OTHER_FORM);
    });
  });

  describe('when a check fails', () => {
    it('follows the contract’s order', async () => {
      const { connect, acme, stranger, input } = await setup();
      expect(await codeOf(connect.execute(ACME, input('employer', 'bad', 'nope')))).to.equal(ErrorCodes.INVALID_SUBMISSION_ID);
      expect(await codeOf(connect.execute(ACME, input('nofield', 'bad', newId())))).to.equal(ErrorCodes.VALIDATION_FAILED);
      expect(await codeOf(connect.execute(ACME, input('nofield', newId(), newId())))).to.equal(ErrorCodes.SUBMISSION_NOT_FOUND);
      expect(await codeOf(connect.execute(ACME, input('nofield', newId())))).to.equal(ErrorCodes.RELATION_FIELD_NOT_FOUND);
      expect(await codeOf(connect.execute(ACME, input('name', acme.id)))).to.equal(ErrorCodes.RELATION_FIELD_NOT_FOUND);
      expect(await codeOf(connect.execute(ACME, input('employer', newId())))).to.equal(ErrorCodes.RELATED_SUBMISSION_NOT_FOUND);
      expect(await codeOf(connect.execute(ACME, input('employer', stranger.id)))).to.equal(ErrorCodes.RELATED_SUBMISSION_OTHER_FORM);
      expect(await codeOf(connect.execute(ACME, input('employer', acme.id)))).to.equal('resolved');
    });

    it('words a malformed related id as the HTTP adapter does', async () => {
      const { connect, input } = await setup();
      const refusal = (await connect.execute(ACME, input('employer', 'xyz')).catch((error: unknown) => error)) as { message?: string };
      expect(refusal.message).to.equal('relatedSubmissionId must be an id of 24 hexadecimal characters');
    });

    it('treats other tenants’ submissions as missing', async () => {
      const { connect, get, foreignCompany, source, input } = await setup();
      expect(await codeOf(connect.execute(ACME, input('employer', foreignCompany.id)))).to.equal(ErrorCodes.RELATED_SUBMISSION_NOT_FOUND);
      expect(await codeOf(connect.execute(anonymousCaller('other-tenant'), input('employer', foreignCompany.id)))).to.equal(ErrorCodes.SUBMISSION_NOT_FOUND);
      expect(await codeOf(get.execute(anonymousCaller('other-tenant'), { id: source.id }))).to.equal(ErrorCodes.SUBMISSION_NOT_FOUND);
    });
  });

  describe('GetSubmission', () => {
    it('answers INVALID_SUBMISSION_ID for a malformed id and reads a stored one case-insensitively', async () => {
      const { get, source } = await setup();
      expect(await codeOf(get.execute(anonymousCaller('acme'), { id: 'z'.repeat(24) }))).to.equal(ErrorCodes.INVALID_SUBMISSION_ID);
      const { tenantId, ...view } = source;
      expect(tenantId).to.equal('acme');
      expect(await get.execute(anonymousCaller('acme'), { id: source.id.toUpperCase() })).to.deep.equal(view);
    });
  });
});
