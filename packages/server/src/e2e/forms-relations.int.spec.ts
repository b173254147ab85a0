/** §2.5 over HTTP: POST /forms/submission/{id}/relations/{fieldName}/connect. */
import { RELATION_CAP, SubmissionRepositoryToken, type SubmissionRepository } from '@cms/core';
import { newId } from '@cms/core/internal';
import { expect } from 'chai';
import { startTestService, TEST_KEYS, TEST_STORAGES, type TestService } from '../testing/test-service.js';
import { engagementClient } from '../testing/engagement-client.js';
import { createForm, submitForm } from './form-requests.js';

for (const storage of TEST_STORAGES) {
  describe(`POST /forms/submission/{id}/relations/{fieldName}/connect (storage: ${storage})`, () => {
    let api: TestService;
    let companyForm: any;
    let personForm: any;
    let otherForm: any;
    before(async () => {
      api = await startTestService({}, { storage });
      companyForm = await createForm(api, 'company');
      otherForm = await createForm(api, 'other');
      personForm = await createForm(api, 'person', {
        sections: [
          {
            fields: [
              { name: 'name', type: 'text', label: { en: 'Name' }, required: true },
              { name: 'employer', type: 'relation', label: { en: 'Employer' }, relation: { formId: companyForm.id } },
              { name: 'clients', type: 'relation', label: { en: 'Clients' }, relation: { formId: companyForm.id, multiple: true } },
            ],
          },
        ],
      });
    });
    after(() => api.stop());
    const person = () => submitForm(api, personForm.id, { name: 'Ada' });
    const company = (name = 'Acme') => submitForm(api, companyForm.id, { name });
    const connect = (id: string, fieldName: string, body: unknown, key: string = TEST_KEYS.a) =>
      api.call('POST', `/forms/submission/${id}/relations/${fieldName}/connect`, { body, key });

    describe('when the relation is single-value', () => {
      it('answers 200 with the submission, then replaces the id on the next connect', async () => {
        const source = await person();
        const [acme, globex] = [await company('Acme'), await company('Globex')];
        const first = await connect(source.id, 'employer', { relatedSubmissionId: acme.id });
        expect(first.status).to.equal(200);
        expect(first.body).to.include({ success: true, statusCode: 200, message: 'Relation connected successfully' });
        expect(Object.keys(first.body.data.submission)).to.have.members(['id', 'formId', 'values', 'relations', 'submittedBy', 'createdAt', 'updatedAt']);
        expect(first.body.data.submission).to.deep.include({ id: source.id, formId: personForm.id, values: { name: 'Ada' }, relations: { employer: acme.id }, submittedBy: null });
        const second = await connect(source.id.toUpperCase(), 'employer', { relatedSubmissionId: globex.id.toUpperCase() });
        expect(second.body.data.submission.relations).to.deep.equal({ employer: globex.id });
        expect(second.body.data.submission.createdAt).to.equal(source.createdAt);
        const read = await api.call('GET', `/forms/submission/${source.id}`);
        expect(read.body.data.submission.relations).to.deep.equal({ employer: globex.id });
      });

      it('changes nothing when the same id is connected again: 200, updatedAt and the ETag kept', async () => {
        const source = await person();
        const acme = await company('Acme');
        const first = await connect(source.id, 'employer', { relatedSubmissionId: acme.id });
        const tag = (await api.call('GET', `/forms/submission/${source.id}`)).headers.get('etag');
        const again = await connect(source.id, 'employer', { relatedSubmissionId: acme.id });
        expect(again.status).to.equal(200);
        expect(again.body.data.submission).to.deep.equal(first.body.data.submission);
        expect((await api.call('GET', `/forms/submission/${source.id}`)).headers.get('etag')).to.equal(tag);
      });
    });

    describe('when the relation is multi-value', () => {
      it('appends each id once', async () => {
        const source = await person();
        const [acme, globex] = [await company('Acme'), await company('Globex')];
        await connect(source.id, 'clients', { relatedSubmissionId: acme.id });
        await connect(source.id, 'clients', { relatedSubmissionId: globex.id });
        const again = await connect(source.id, 'clients', { relatedSubmissionId: acme.id });
        expect(again.status).to.equal(200);
        expect(again.body.data.submission.relations).to.deep.equal({ clients: [acme.id, globex.id] });
      });

      it('keeps all of twelve concurrent connects', async () => {
        const source = await person();
        const related = await Promise.all(Array.from({ length: 12 }, (_, i) => company(`C${i}`)));
        const results = await Promise.all(related.map((r) => connect(source.id, 'clients', { relatedSubmissionId: r.id })));
        expect(results.map((r) => r.status)).to.deep.equal(Array(12).fill(200));
        const read = await api.call('GET', `/forms/submission/${source.id}`);
        const clients = read.body.data.submission.relations.clients;
        expect(clients).to.have.length(12);
        expect(clients).to.have.members(related.map((r) => r.id));
      });

      it(`answers 400 once ${RELATION_CAP} ids are connected, but 200 for one already connected`, async () => {
        const source = await person();
        const repo = api.service.container.get<SubmissionRepository>(SubmissionRepositoryToken);
        const filler = Array.from({ length: RELATION_CAP - 1 }, () => newId());
        for (const relatedId of filler) {
          await repo.connectRelation({ tenantId: 'tenant-a', submissionId: source.id, fieldName: 'clients', relatedId, multiple: true, cap: RELATION_CAP, now: new Date() });
        }
        const last = await company('Last');
        expect((await connect(source.id, 'clients', { relatedSubmissionId: last.id })).status).to.equal(200);
        const extra = await company('Extra');
        const full = await connect(source.id, 'clients', { relatedSubmissionId: extra.id });
        expect(full.status).to.equal(400);
        expect(full.body.message).to.equal(`Validation failed: relations.clients already holds the maximum of ${RELATION_CAP} related submissions`);
        expect((await connect(source.id, 'clients', { relatedSubmissionId: last.id })).status).to.equal(200);
      });
    });

    describe('when a form update changes whether the field holds one related submission or several', () => {
      const sections = (multiple: boolean) => [
        { fields: [{ name: 'employer', type: 'relation', label: { en: 'Employer' }, relation: { formId: companyForm.id, multiple } }] },
      ];

      it('keeps the id connected before, in front of the next one; and replaces a list once single again', async () => {
        const form = await createForm(api, 'mover', { sections: sections(false) });
        const source = await submitForm(api, form.id, {});
        const [acme, globex] = [await company('Acme'), await company('Globex')];
        expect((await connect(source.id, 'employer', { relatedSubmissionId: acme.id })).status).to.equal(200);
        expect((await api.call('PATCH', `/forms/update/${form.id}`, { body: { sections: sections(true) } })).status).to.equal(200);

        const second = await connect(source.id, 'employer', { relatedSubmissionId: globex.id });
        expect(second.status).to.equal(200);
        expect(second.body.data.submission.relations).to.deep.equal({ employer: [acme.id, globex.id] });
        const again = await connect(source.id, 'employer', { relatedSubmissionId: acme.id });
        expect(again.body.data.submission).to.deep.equal(second.body.data.submission);

        expect((await api.call('PATCH', `/forms/update/${form.id}`, { body: { sections: sections(false) } })).status).to.equal(200);
        const single = await connect(source.id, 'employer', { relatedSubmissionId: acme.id });
        expect(single.status).to.equal(200);
        expect(single.body.data.submission.relations).to.deep.equal({ employer: acme.id });
      });

      it('still takes an erased or deleted related submission out of a field the form renamed, retargeted or dropped since', async () => {
        const field = (name: string, formId: string) => ({ name, type: 'relation', label: { en: name }, relation: { formId, multiple: true } });
        const target = await createForm(api, 'reshaped-target');
        const form = await createForm(api, 'reshaped', { sections: [{ fields: [field('employer', target.id)] }] });
        const source = await submitForm(api, form.id, {});
        const [acme, globex] = [await submitForm(api, target.id, { name: 'Acme' }), await submitForm(api, target.id, { name: 'Globex' })];
        for (const related of [acme, globex]) expect((await connect(source.id, 'employer', { relatedSubmissionId: related.id })).status).to.equal(200);
        const reshapes = [[field('employer', otherForm.id)], [field('company', target.id)], [{ name: 'note', type: 'text', label: { en: 'Note' } }]];
        for (const fields of reshapes) {
          expect((await api.call('PATCH', `/forms/update/${form.id}`, { body: { sections: [{ fields }] } })).status).to.equal(200);
        }
        const read = async () => (await api.call('GET', `/forms/submission/${source.id}`)).body.data.submission.relations;
        expect(await read()).to.deep.equal({ employer: [acme.id, globex.id] });
        const editor = await engagementClient(api).bearer('editor');
        expect((await api.call('DELETE', `/forms/submission/${acme.id}`, { headers: editor })).status).to.equal(200);
        expect(await read()).to.deep.equal({ employer: [globex.id] });
        expect((await api.call('DELETE', `/forms/delete/${target.id}`, { headers: editor })).status).to.equal(200);
        expect(await read()).to.deep.equal({ employer: [] });
      });

      it('reads a single id as a list of it: connecting it again changes nothing', async () => {
        const form = await createForm(api, 'repeat', { sections: sections(false) });
        const source = await submitForm(api, form.id, {});
        const acme = await company('Acme');
        const first = await connect(source.id, 'employer', { relatedSubmissionId: acme.id });
        await api.call('PATCH', `/forms/update/${form.id}`, { body: { sections: sections(true) } });
        const again = await connect(source.id, 'employer', { relatedSubmissionId: acme.id });
        expect(again.status).to.equal(200);
        expect(again.body.data.submission).to.deep.equal(first.body.data.submission);
      });
    });

    describe('when a check fails', () => {
      let source: any;
      let acme: any;
      let stranger: any;
      let foreignCompany: any;
      before(async () => {
        source = await person();
        acme = await company();
        stranger = await submitForm(api, otherForm.id, { name: 'Stranger' });
        const foreignForm = await createForm(api, 'foreign-company', {}, { key: TEST_KEYS.b });
        foreignCompany = await submitForm(api, foreignForm.id, { name: 'Foreign' }, { key: TEST_KEYS.b });
      });
      const expectError = (res: { status: number; body: any }, status: number, message: string) => {
        expect(res.status).to.equal(status);
        expect(res.body).to.deep.include({ success: false, statusCode: status, message, data: null });
      };

      it('answers 400 Invalid submission id first, whatever the body', async () => {
        for (const id of ['abc', 'z'.repeat(24), 'a'.repeat(25)]) expectError(await connect(id, 'employer', { nonsense: 1 }), 400, 'Invalid submission id');
      });

      const bodies: Array<[string, unknown, string]> = [
        ['no body', undefined, 'Validation failed: body must be an object'],
        ['no relatedSubmissionId', {}, 'Validation failed: body.relatedSubmissionId is required'],
        ['a malformed relatedSubmissionId', { relatedSubmissionId: 'xyz' }, 'Validation failed: body.relatedSubmissionId must be an id of 24 hexadecimal characters'],
        ['a numeric relatedSubmissionId', { relatedSubmissionId: 42 }, 'Validation failed: body.relatedSubmissionId must be a string'],
        ['another property', { relatedSubmissionId: 'a'.repeat(24), force: true }, 'Validation failed: body.force is not allowed'],
        ['a body that is not an object', ['a'.repeat(24)], 'Validation failed: body must be an object'],
      ];
      for (const [name, body, message] of bodies) {
        it(`answers 400 for ${name}, before looking up the submission`, async () => {
          const res = await connect('f'.repeat(24), 'employer', body);
          expect(res.status).to.equal(400);
          expect(res.body.message).to.contain(message);
        });
      }

      it('answers 404 Submission not found for an unknown submission and for another tenant’s', async () => {
        expectError(await connect('f'.repeat(24), 'nofield', { relatedSubmissionId: 'f'.repeat(24) }), 404, 'Submission not found');
        expectError(await connect(source.id, 'employer', { relatedSubmissionId: acme.id }, TEST_KEYS.b), 404, 'Submission not found');
      });

      it('answers 404 Relation field not found for an unknown field or one without a relation', async () => {
        expectError(await connect(source.id, 'nofield', { relatedSubmissionId: 'f'.repeat(24) }), 404, 'Relation field not found');
        expectError(await connect(source.id, 'name', { relatedSubmissionId: 'f'.repeat(24) }), 404, 'Relation field not found');
        expectError(await connect(source.id, 'Employer', { relatedSubmissionId: acme.id }), 404, 'Relation field not found');
      });

      it('answers 404 Related submission not found for an unknown one and for another tenant’s', async () => {
        expectError(await connect(source.id, 'employer', { relatedSubmissionId: 'f'.repeat(24) }), 404, 'Related submission not found');
        expectError(await connect(source.id, 'employer', { relatedSubmissionId: foreignCompany.id }), 404, 'Related submission not found');
      });

      it('answers 400 Related submission belongs to another form', async () => {
        expectError(await connect(source.id, 'employer', { relatedSubmissionId: stranger.id }), 400, 'Related submission belongs to another form');
      });

      it('changes nothing when refused', async () => {
        const read = await api.call('GET', `/forms/submission/${source.id}`);
        expect(read.body.data.submission.relations).to.deep.equal({});
        expect(read.body.data.submission.updatedAt).to.equal(source.updatedAt);
      });
    });
  });
}
