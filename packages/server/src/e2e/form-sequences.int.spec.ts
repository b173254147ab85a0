/**
 * Random sequences of valid operations on forms, submissions and relations, with what must hold
 * after any of them checked along the way (fast-check's model-based runs, shrunk to the shortest
 * failing sequence). The fuzz suite sends one request at a time; these find states only a
 * sequence reaches, such as a form that a delete elsewhere left refusing every later update.
 * On both test storages; the helpers and settings are in testing/command-sequences.ts.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { at, describeSequences, expectStatus, weighted, type SequenceService } from '../testing/command-sequences.js';
import { pageThrough } from '../testing/page-through.js';
import { TEST_KEYS } from '../testing/test-service.js';

/** What a run has created and not removed; records of earlier runs stay in the service, unseen. */
interface FormsModel {
  readonly forms: string[];
  /** Submission id → its form's id. */
  readonly submissions: Map<string, string>;
}

interface Service extends SequenceService {
  /** A slug no run has used yet: the runs share one service. */
  slug(): string;
}

type FormsCommand = fc.AsyncCommand<FormsModel, Service>;

/** A field of a generated form: relations target a form of the run, picked by index when run. */
interface FieldSpec {
  readonly name: string;
  readonly type: 'text' | 'email' | 'relation';
  readonly target: number;
  readonly multiple: boolean;
}

const fieldSpecs = fc.uniqueArray(
  fc.record({ name: fc.constantFrom('a', 'b', 'c', 'd'), type: fc.constantFrom('text', 'email', 'relation'), target: fc.nat(), multiple: fc.boolean() }),
  { minLength: 1, maxLength: 3, selector: (field) => field.name },
) as fc.Arbitrary<FieldSpec[]>;

function sectionsOf(fields: readonly FieldSpec[], forms: readonly string[]): unknown[] {
  return [
    {
      fields: fields.map(({ name, type, target, multiple }) =>
        type === 'relation' && forms.length > 0
          ? { name, type, label: { en: name }, relation: { formId: at(forms, target), multiple } }
          : { name, type: type === 'relation' ? 'text' : type, label: { en: name } },
      ),
    },
  ];
}

class CreateForm implements FormsCommand {
  constructor(readonly fields: FieldSpec[], readonly next: number | null) {}
  check = () => true;
  async run(model: FormsModel, { api, slug }: Service) {
    const body: Record<string, unknown> = { title: { en: 'Step' }, slug: slug() };
    body.sections = sectionsOf(this.fields, model.forms);
    if (this.next !== null && model.forms.length > 0) body.flow = { nextFormId: at(model.forms, this.next) };
    const res = await api.call('POST', '/forms/create', { body });
    expectStatus(res, [201], 'create');
    model.forms.push(res.body.data.form.id);
  }
  toString = () => `create(${JSON.stringify(this.fields)}, next ${this.next})`;
}

class ReplaceSections implements FormsCommand {
  constructor(readonly form: number, readonly fields: FieldSpec[]) {}
  check = (model: Readonly<FormsModel>) => model.forms.length > 0;
  async run(model: FormsModel, { api }: Service) {
    const res = await api.call('PATCH', `/forms/update/${at(model.forms, this.form)}`, { body: { sections: sectionsOf(this.fields, model.forms) } });
    expectStatus(res, [200], 'new sections');
  }
  toString = () => `sections(form ${this.form}, ${JSON.stringify(this.fields)})`;
}

class PointFlow implements FormsCommand {
  constructor(readonly form: number, readonly next: number | null) {}
  check = (model: Readonly<FormsModel>) => model.forms.length > 0;
  async run(model: FormsModel, { api }: Service) {
    const id = at(model.forms, this.form);
    const next = this.next === null ? null : at(model.forms, this.next);
    const res = await api.call('PATCH', `/forms/update/${id}`, { body: { flow: { nextFormId: next } } });
    expectStatus(res, next === id ? [400] : [200], 'flow');
  }
  toString = () => `flow(form ${this.form} → ${this.next})`;
}

class DeleteForm implements FormsCommand {
  constructor(readonly form: number) {}
  check = (model: Readonly<FormsModel>) => model.forms.length > 0;
  async run(model: FormsModel, { api, editor }: Service) {
    const id = at(model.forms, this.form);
    expectStatus(await api.call('DELETE', `/forms/delete/${id}`, { headers: editor }), [200], 'form delete');
    model.forms.splice(model.forms.indexOf(id), 1);
    for (const [submission, form] of model.submissions) if (form === id) model.submissions.delete(submission);
  }
  toString = () => `deleteForm(${this.form})`;
}

class Submit implements FormsCommand {
  constructor(readonly form: number) {}
  check = (model: Readonly<FormsModel>) => model.forms.length > 0;
  async run(model: FormsModel, { api }: Service) {
    const formId = at(model.forms, this.form);
    const res = await api.call('POST', `/forms/${formId}/submit`, { body: { values: {} } });
    expectStatus(res, [201], 'submit');
    model.submissions.set(res.body.data.submission.id, formId);
  }
  toString = () => `submit(form ${this.form})`;
}

class Relate implements FormsCommand {
  constructor(readonly verb: 'connect' | 'disconnect', readonly submission: number, readonly field: string, readonly related: number) {}
  check = (model: Readonly<FormsModel>) => model.submissions.size > 0;
  async run(model: FormsModel, { api, editor }: Service) {
    const ids = [...model.submissions.keys()];
    const path = `/forms/submission/${at(ids, this.submission)}/relations/${this.field}/${this.verb}`;
    // Whether the field is a relation to the related submission's form is the service's to judge.
    expectStatus(await api.call('POST', path, { headers: editor, body: { relatedSubmissionId: at(ids, this.related) } }), [200, 400, 404], this.verb);
  }
  toString = () => `${this.verb}(${this.submission}.${this.field} ↔ ${this.related})`;
}

class Erase implements FormsCommand {
  constructor(readonly submission: number) {}
  check = (model: Readonly<FormsModel>) => model.submissions.size > 0;
  async run(model: FormsModel, { api, editor }: Service) {
    const id = at([...model.submissions.keys()], this.submission);
    expectStatus(await api.call('DELETE', `/forms/submission/${id}`, { headers: editor }), [200], 'erase');
    model.submissions.delete(id);
  }
  toString = () => `erase(${this.submission})`;
}

/**
 * What must hold after any sequence, for every form of the run: an update of its title alone,
 * and its own sections and flow sent back, are accepted; its next form can be read; its export
 * and its submissions list (paged) hold exactly its submissions, and their relations name only
 * submissions that still exist.
 */
class CheckForms implements FormsCommand {
  check = () => true;
  async run(model: FormsModel, { api }: Service) {
    for (const id of model.forms) {
      const retitled = await api.call('PATCH', `/forms/update/${id}`, { body: { title: { en: 'Checked' } } });
      expectStatus(retitled, [200], `title-only update of ${id}`);
      const { sections, flow } = retitled.body.data.form;
      expectStatus(await api.call('PATCH', `/forms/update/${id}`, { body: { sections, flow } }), [200], `sections and flow sent back to ${id}`);
      expectStatus(await api.call('GET', `/forms/getNextById/${id}`), [200], `next form of ${id}`);
      const exported = await fetch(`${api.baseUrl}/forms/${id}/submissions/export?format=ndjson`, { headers: { 'x-api-key': TEST_KEYS.a } });
      const records = (await exported.text()).split('\n').filter(Boolean).map((line) => JSON.parse(line) as { id: string; relations: Record<string, string | string[]> });
      const expected = [...model.submissions].filter(([, form]) => form === id).map(([submission]) => submission);
      expect(records.map((record) => record.id).sort(), `export of ${id}`).to.deep.equal(expected.sort());
      expect((await pageThrough(api, `/forms/${id}/submissions`, 'submissions', 3)).sort(), `submissions list of ${id}`).to.deep.equal(expected);
      for (const record of records) {
        for (const related of Object.values(record.relations).flat()) {
          expect(model.submissions.has(related), `${record.id} names ${related}, which is gone`).to.equal(true);
        }
      }
    }
  }
  toString = () => 'check';
}

/** Each generator with its weight: forms and submissions come often enough for deletes and relations to have something to act on. */
const formsCommands = weighted<FormsCommand>([
  [3, fc.tuple(fieldSpecs, fc.option(fc.nat())).map(([fields, next]) => new CreateForm(fields, next))],
  [2, fc.tuple(fc.nat(), fieldSpecs).map(([form, fields]) => new ReplaceSections(form, fields))],
  [1, fc.tuple(fc.nat(), fc.option(fc.nat())).map(([form, next]) => new PointFlow(form, next))],
  [1, fc.nat().map((form) => new DeleteForm(form))],
  [3, fc.nat().map((form) => new Submit(form))],
  [
    4,
    fc
      .tuple(fc.constantFrom('connect' as const, 'disconnect' as const), fc.nat(), fc.constantFrom('a', 'b', 'c', 'd'), fc.nat())
      .map(([verb, submission, field, related]) => new Relate(verb, submission, field, related)),
  ],
  [1, fc.nat().map((submission) => new Erase(submission))],
  [1, fc.constant(new CheckForms())],
]);

let slugs = 0;

describeSequences<FormsModel, Service>({
  operations: 'form, submission and relation',
  holds: 'leave every form updatable and readable, and no relation naming an erased submission',
  commands: formsCommands,
  start: (service) => ({ model: { forms: [], submissions: new Map() }, real: { ...service, slug: () => `sequence-${(slugs += 1)}` } }),
  check: new CheckForms(),
});
