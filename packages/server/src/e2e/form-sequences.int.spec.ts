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
  /** Form id → what decides its slug conflicts and who may submit to it, in creation order. */
  readonly forms: Map<string, FormState>;
  /** Submission id → its form's id. */
  readonly submissions: Map<string, string>;
}

interface FormState {
  readonly slug: string;
  readonly isActive: boolean;
  readonly visibility: 'public' | 'internal';
  /** The e-mail field submitter notifications go to (null: none yet), when they are on; undefined when off. */
  readonly mailsTo: string | null | undefined;
}

const formIds = (model: Readonly<FormsModel>) => [...model.forms.keys()];

interface Service extends SequenceService {
  /** Slug number `pooled` of this run (a few, so that slugs are taken, freed and taken again), or one no run has used (null). */
  slug(pooled: number | null): string;
}

const pooledSlugs = fc.option(fc.nat({ max: 2 }));

/** 409 when another form of the run holds the slug: the slug is unique in the tenant, and freed by a rename or a delete. */
const slugStatus = (model: Readonly<FormsModel>, slug: string, success: number, form?: string) =>
  [...model.forms].some(([id, state]) => state.slug === slug && id !== form) ? 409 : success;

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

/** Submitter e-mail on or off; on, it goes to the first e-mail field (create's default). */
class CreateForm implements FormsCommand {
  constructor(readonly fields: FieldSpec[], readonly next: number | null, readonly slug: number | null, readonly mailSubmitter: boolean) {}
  check = () => true;
  async run(model: FormsModel, { api, slug }: Service) {
    const body: Record<string, unknown> = { title: { en: 'Step' }, slug: slug(this.slug) };
    body.sections = sectionsOf(this.fields, formIds(model));
    if (this.next !== null && model.forms.size > 0) body.flow = { nextFormId: at(formIds(model), this.next) };
    if (this.mailSubmitter) body.notifications = { enabled: true, email: { submitter: { enabled: true } } };
    const res = await api.call('POST', '/forms/create', { body });
    expectStatus(res, [slugStatus(model, body.slug as string, 201)], 'create');
    if (res.status !== 201) return;
    const { id, notifications } = res.body.data.form;
    model.forms.set(id, { slug: body.slug as string, isActive: true, visibility: 'public', mailsTo: this.mailSubmitter ? notifications.email.submitter.field : undefined });
  }
  toString = () => `create(${JSON.stringify(this.fields)}, next ${this.next}, slug ${this.slug}, mail ${this.mailSubmitter})`;
}

/** A new slug (409 when another form holds it), or a new state: active or not, public or internal. */
class Reshape implements FormsCommand {
  constructor(readonly form: number, readonly slug: number | null, readonly isActive: boolean, readonly visibility: 'public' | 'internal') {}
  check = (model: Readonly<FormsModel>) => model.forms.size > 0;
  async run(model: FormsModel, { api, slug }: Service) {
    const id = at(formIds(model), this.form);
    const before = model.forms.get(id)!;
    const body = { slug: this.slug === null ? before.slug : slug(this.slug), isActive: this.isActive, visibility: this.visibility };
    const res = await api.call('PATCH', `/forms/update/${id}`, { body });
    expectStatus(res, [slugStatus(model, body.slug, 200, id)], 'reshape');
    if (res.status === 200) model.forms.set(id, { ...before, ...body });
  }
  toString = () => `reshape(form ${this.form}, slug ${this.slug}, active ${this.isActive}, ${this.visibility})`;
}

/** 400 when the sections drop the e-mail field submitter notifications go to (decision 0762); else 200. */
class ReplaceSections implements FormsCommand {
  constructor(readonly form: number, readonly fields: FieldSpec[]) {}
  check = (model: Readonly<FormsModel>) => model.forms.size > 0;
  async run(model: FormsModel, { api }: Service) {
    const id = at(formIds(model), this.form);
    const state = model.forms.get(id)!;
    const res = await api.call('PATCH', `/forms/update/${id}`, { body: { sections: sectionsOf(this.fields, formIds(model)) } });
    const { mailsTo } = state;
    const keepsMail = mailsTo === undefined || mailsTo === null || this.fields.some(({ name, type }) => name === mailsTo && type === 'email');
    expectStatus(res, [keepsMail ? 200 : 400], 'new sections');
    if (res.status === 200 && mailsTo !== undefined) model.forms.set(id, { ...state, mailsTo: res.body.data.form.notifications.email.submitter.field });
  }
  toString = () => `sections(form ${this.form}, ${JSON.stringify(this.fields)})`;
}

class PointFlow implements FormsCommand {
  constructor(readonly form: number, readonly next: number | null) {}
  check = (model: Readonly<FormsModel>) => model.forms.size > 0;
  async run(model: FormsModel, { api }: Service) {
    const id = at(formIds(model), this.form);
    const next = this.next === null ? null : at(formIds(model), this.next);
    const res = await api.call('PATCH', `/forms/update/${id}`, { body: { flow: { nextFormId: next } } });
    expectStatus(res, next === id ? [400] : [200], 'flow');
  }
  toString = () => `flow(form ${this.form} → ${this.next})`;
}

class DeleteForm implements FormsCommand {
  constructor(readonly form: number) {}
  check = (model: Readonly<FormsModel>) => model.forms.size > 0;
  async run(model: FormsModel, { api, editor }: Service) {
    const id = at(formIds(model), this.form);
    expectStatus(await api.call('DELETE', `/forms/delete/${id}`, { headers: editor }), [200], 'form delete');
    model.forms.delete(id);
    for (const [submission, form] of model.submissions) if (form === id) model.submissions.delete(submission);
  }
  toString = () => `deleteForm(${this.form})`;
}

/** A public submit (an active public form only) or an internal one by a user (an active form). */
class Submit implements FormsCommand {
  constructor(readonly form: number, readonly internal: boolean) {}
  check = (model: Readonly<FormsModel>) => model.forms.size > 0;
  async run(model: FormsModel, { api, editor }: Service) {
    const formId = at(formIds(model), this.form);
    const { isActive, visibility } = model.forms.get(formId)!;
    const res = this.internal
      ? await api.call('POST', `/forms/${formId}/internal-submit`, { headers: editor, body: { values: {} } })
      : await api.call('POST', `/forms/${formId}/submit`, { body: { values: {} } });
    expectStatus(res, [isActive && (this.internal || visibility === 'public') ? 201 : 403], this.internal ? 'internal submit' : 'submit');
    if (res.status === 201) model.submissions.set(res.body.data.submission.id, formId);
  }
  toString = () => `submit(form ${this.form}${this.internal ? ', internal' : ''})`;
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
 * and its own sections and flow sent back, are accepted; its slug finds it; its next form is the
 * one its flow names unless that one is gone, inactive or internal (§2.9); its export
 * and its submissions list (paged) hold exactly its submissions, each as its single read answers
 * it, and their relations name only submissions that still exist.
 */
class CheckForms implements FormsCommand {
  check = () => true;
  async run(model: FormsModel, { api }: Service) {
    for (const [id, state] of model.forms) {
      const retitled = await api.call('PATCH', `/forms/update/${id}`, { body: { title: { en: 'Checked' } } });
      expectStatus(retitled, [200], `title-only update of ${id}`);
      const { sections, flow, slug } = retitled.body.data.form;
      expect(slug, `slug of ${id}`).to.equal(state.slug);
      expectStatus(await api.call('PATCH', `/forms/update/${id}`, { body: { sections, flow } }), [200], `sections and flow sent back to ${id}`);
      const bySlug = await api.call('GET', `/forms/getBySlug/${slug}`);
      expect(bySlug.body.data?.form?.id, `form with the slug ${slug}`).to.equal(id);
      const next = await api.call('GET', `/forms/getNextById/${id}`);
      expectStatus(next, [200], `next form of ${id}`);
      expect(next.body.data.nextForm?.id ?? null, `next form of ${id}`).to.equal(await shownAsNext(api, flow.nextFormId));
      const exported = await fetch(`${api.baseUrl}/forms/${id}/submissions/export?format=ndjson`, { headers: { 'x-api-key': TEST_KEYS.a } });
      const records = (await exported.text()).split('\n').filter(Boolean).map((line) => JSON.parse(line) as { id: string; relations: Record<string, string | string[]> });
      const expected = [...model.submissions].filter(([, form]) => form === id).map(([submission]) => submission);
      expect(records.map((record) => record.id).sort(), `export of ${id}`).to.deep.equal(expected.sort());
      expect((await pageThrough(api, `/forms/${id}/submissions`, 'submissions', 3)).sort(), `submissions list of ${id}`).to.deep.equal(expected);
      for (const record of records) {
        const read = await api.call('GET', `/forms/submission/${record.id}`);
        expect(record, `exported ${record.id} as its read answers it`).to.deep.equal(read.body.data.submission);
        for (const related of Object.values(record.relations).flat()) {
          expect(model.submissions.has(related), `${record.id} names ${related}, which is gone`).to.equal(true);
        }
      }
    }
  }
  toString = () => 'check';
}

/** §2.9: the form `flow.nextFormId` names, unless it is gone, inactive or internal. */
async function shownAsNext(api: Service['api'], nextFormId: string | null): Promise<string | null> {
  if (nextFormId === null) return null;
  const read = await api.call('GET', `/forms/getById/${nextFormId}`);
  if (read.status === 404) return null;
  const { isActive, visibility } = read.body.data.form;
  return isActive && visibility === 'public' ? nextFormId : null;
}

/** Each generator with its weight: forms and submissions come often enough for deletes and relations to have something to act on. */
const formsCommands = weighted<FormsCommand>([
  [3, fc.tuple(fieldSpecs, fc.option(fc.nat()), pooledSlugs, fc.boolean()).map((drawn) => new CreateForm(...drawn))],
  [1, fc.tuple(fc.nat(), pooledSlugs, fc.boolean(), fc.constantFrom('public' as const, 'internal' as const)).map((drawn) => new Reshape(...drawn))],
  [2, fc.tuple(fc.nat(), fieldSpecs).map(([form, fields]) => new ReplaceSections(form, fields))],
  [1, fc.tuple(fc.nat(), fc.option(fc.nat())).map(([form, next]) => new PointFlow(form, next))],
  [1, fc.nat().map((form) => new DeleteForm(form))],
  [3, fc.tuple(fc.nat(), fc.boolean()).map(([form, internal]) => new Submit(form, internal))],
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
  start: (service, run) => ({
    model: { forms: new Map(), submissions: new Map() },
    real: { ...service, slug: (pooled) => (pooled === null ? `sequence-${(slugs += 1)}` : `sequence-${run}-pool-${pooled}`) },
  }),
  check: new CheckForms(),
});
