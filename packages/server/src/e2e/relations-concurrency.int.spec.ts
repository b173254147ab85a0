/**
 * Relations under concurrent traffic, as a property (CONTRACT §2.5, §6.4, §6.5): random batches
 * of submits, connects, disconnects and erasures sent together over HTTP, on both storages.
 * Whatever the interleaving, no request fails with a 5xx, an erased submission is gone from
 * reads and from its form's list, and no submission that is left refers to one that was erased
 * (decisions 0766 and 0767): the forced races of `content-delete-races.int.spec.ts`, here left to
 * the event loop with many writers at once.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { FormRepositoryToken, SubmissionRepositoryToken } from '@cms/core';
import type { Container } from 'inversify';
import { engagementClient } from '../testing/engagement-client.js';
import { addLatency } from '../testing/latency-proxy.js';
import { pageThrough } from '../testing/page-through.js';
import { startTestService, TEST_STORAGES, type CallResult, type TestService } from '../testing/test-service.js';
import { createForm, submitForm } from './form-requests.js';

type Field = 'employer' | 'clients';
type Side = 'company' | 'person';
type Operation =
  | { readonly kind: 'submit'; readonly side: Side }
  | { readonly kind: 'connect' | 'disconnect'; readonly person: number; readonly field: Field; readonly company: number }
  | { readonly kind: 'erase'; readonly side: Side; readonly index: number };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('submit' as const), side: fc.constantFrom<Side>('company', 'person') }) },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('connect' as const), person: fc.nat(), field: fc.constantFrom<Field>('employer', 'clients'), company: fc.nat() }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('disconnect' as const), person: fc.nat(), field: fc.constantFrom<Field>('employer', 'clients'), company: fc.nat() }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('erase' as const), side: fc.constantFrom<Side>('company', 'person'), index: fc.nat() }) },
);

/** Each batch's requests are sent together; batches one after the other. */
const batches = fc.array(fc.array(operation, { minLength: 1, maxLength: 8 }), { minLength: 3, maxLength: 6 });

/** What each kind of request may answer; anything else (a 5xx above all) fails the run. */
const ALLOWED: Record<Operation['kind'], readonly number[]> = {
  submit: [201],
  connect: [200, 404],
  disconnect: [200, 404],
  erase: [200, 404],
};

for (const storage of TEST_STORAGES) {
  describe(`Relations under concurrent submits, connects, disconnects and erasures (storage: ${storage})`, () => {
    let api: TestService;
    let editor: Record<string, string>;
    let runs = 0;
    before(async () => {
      // Store calls take a few milliseconds, so the requests of a batch really interleave.
      const configure = (c: Container) => {
        addLatency(c, SubmissionRepositoryToken, 3, 11);
        addLatency(c, FormRepositoryToken, 2, 13);
      };
      api = await startTestService({}, { configure, storage });
      editor = await engagementClient(api).bearer('editor');
    });
    after(() => api.stop());

    it('never answers 5xx, and leaves no reference to an erased submission and no erased one in reads or lists', async () => {
      await fc.assert(
        fc.asyncProperty(batches, async (plan) => {
          runs += 1;
          const company = await createForm(api, `conc-company-${storage}-${runs}`);
          const relation = (name: Field, multiple: boolean) => ({ name, type: 'relation', label: { en: name }, relation: { formId: company.id, multiple } });
          const person = await createForm(api, `conc-person-${storage}-${runs}`, { sections: [{ fields: [relation('employer', false), relation('clients', true)] }] });
          // Every submission ever created (erased ones stay, so later requests name them too), and the ones not erased.
          const created: Record<Side, string[]> = { company: [await submitForm(api, company.id, { name: 'First' }).then((s) => s.id)], person: [] };
          const alive = new Set<string>(created.company);
          const pick = (side: Side, index: number) => (created[side].length === 0 ? undefined : created[side][index % created[side].length]);

          const send = async (op: Operation): Promise<string | undefined> => {
            let res: CallResult;
            if (op.kind === 'submit') {
              const formId = op.side === 'company' ? company.id : person.id;
              res = await api.call('POST', `/forms/${formId}/submit`, { body: { values: op.side === 'company' ? { name: 'Company' } : {} } });
              if (res.status === 201) {
                created[op.side].push(res.body.data.submission.id);
                alive.add(res.body.data.submission.id);
              }
            } else if (op.kind === 'erase') {
              const id = pick(op.side, op.index);
              if (id === undefined) return undefined;
              res = await api.call('DELETE', `/forms/submission/${id}`, { headers: editor });
              if (res.status === 200) alive.delete(id);
            } else {
              const [holder, related] = [pick('person', op.person), pick('company', op.company)];
              if (holder === undefined || related === undefined) return undefined;
              res = await api.call('POST', `/forms/submission/${holder}/relations/${op.field}/${op.kind}`, { body: { relatedSubmissionId: related } });
            }
            return ALLOWED[op.kind].includes(res.status) ? undefined : `${JSON.stringify(op)} answered ${res.status}: ${JSON.stringify(res.body)}`;
          };
          for (const batch of plan) {
            const problems = (await Promise.all(batch.map(send))).filter((problem) => problem !== undefined);
            expect(problems).to.deep.equal([]);
          }

          for (const id of [...created.company, ...created.person]) {
            const res = await api.call('GET', `/forms/submission/${id}`);
            expect(res.status, id).to.equal(alive.has(id) ? 200 : 404);
            if (res.status !== 200) continue;
            const { employer, clients } = res.body.data.submission.relations as { employer?: string; clients?: string[] };
            if (employer !== undefined) expect(alive.has(employer), `employer ${employer} of ${id}`).to.equal(true);
            if (clients !== undefined) {
              expect(clients.filter((client) => !alive.has(client)), `clients of ${id}`).to.deep.equal([]);
              expect(new Set(clients).size, `clients of ${id}`).to.equal(clients.length);
            }
          }
          const listedCompanies = await pageThrough(api, `/forms/${company.id}/submissions`, 'submissions', 7);
          expect(new Set(listedCompanies).size).to.equal(listedCompanies.length);
          expect([...listedCompanies].sort()).to.deep.equal(created.company.filter((id) => alive.has(id)).sort());
        }),
        { numRuns: 20 },
      );
    });
  });
}
