/**
 * Racing writes on forms, submissions and relations, interleaved at the storage's gated calls
 * in orders fast-check draws (`drawn-races.ts`) and shrinks: two to six use cases started
 * together, on the repositories `storesFor` gives (the other stores embedded), over a form A
 * whose relation fields (`employer` single, `clients` multi) target a form B; both e-mail their
 * admins on each submission. Each may be refused (a domain error), never fail otherwise; once
 * all have settled (and the enqueue a submit leaves running has finished), what must hold
 * whatever the order:
 * - no two forms share a slug, each form is found by its own, and each still takes an update of
 *   its title alone;
 * - no relation names a submission that is gone (an erasure or a form delete leaves no reference
 *   behind), and a connect that answered holds its id unless a racing operation could take it;
 * - a delete that answered is final, a submission no answered delete removed is still there,
 *   and a deleted form keeps no submission; a form's submissions paged through (one or two a
 *   page) while the others write show none twice and every one there throughout;
 * - no notification job is left of a submission that is gone (its message carries the values),
 *   and every submission left has its job.
 * Core's forced interleavings (the connect and delete specs) pin single orders; this draws them.
 * RACE_RUNS (default 1000), RACE_SEED, RACE_PATH and RACE_MAX tune it (`describeRaces`).
 */
import { expect } from 'chai';
import type { Arbitrary } from 'fast-check';
import { StaticCaptchaVerifier } from '../../captcha/captcha.ports.js';
import { createCore, type Core } from '../../embedded/create-core.js';
import { memoryStores, type CoreStores } from '../../embedded/core-stores.js';
import type { CreateFormInput } from '../../forms/create-form-input.js';
import type { Clock } from '../../shared/clock.js';
import { TrackedWork } from '../../shared/background-work.js';
import { anonymousCaller, userCaller } from '../callers.js';
import { describeRaces, raceOperation, type FastCheck, type RaceOperation } from './drawn-races.js';
import type { RaceGate, RaceOptions } from '../race-gates.js';

/** The repositories the form races run on, their calls waiting at `gate`; a fresh, empty set per race. */
export type FormRaceStores = Pick<CoreStores, 'forms' | 'submissions' | 'outbox'>;

const TENANT = 'acme';
const apiKey = anonymousCaller(TENANT);
const editor = userCaller(TENANT, 'ed-1', 'editor');
const PAGE = { after: null, limit: 1000 } as const;
const SLUGS = ['alpha', 'beta', 'gamma'];
const RELATION_FIELDS = ['employer', 'clients'] as const;

/** The records made before the race, named by index in the drawn operations. */
interface World {
  readonly core: Core<CoreStores>;
  /** Where a submit's notification enqueue runs after its answer: the race waits for it. */
  readonly work: TrackedWork;
  /** A (the relations' holder), then B (their target). */
  readonly forms: [string, string];
  /** Of A, then of B. */
  readonly submissions: { readonly a: string[]; readonly b: string[] };
}

const text = (label: string) => ({ name: label.toLowerCase(), type: 'text', label: { en: label } });
const relationField = (name: string, formId: string, multiple: boolean) => ({ name, type: 'relation', label: { en: name }, relation: { formId, multiple } });
function holderSections(target: string, names: { employer: string; clients: string | null }) {
  const fields = [text('Name'), relationField(names.employer, target, false), ...(names.clients === null ? [] : [relationField(names.clients, target, true)])];
  return [{ fields }] as CreateFormInput['sections'];
}

/** Each submission queues an e-mail to the form's admins (the message carries its values). */
const NOTIFIED = { enabled: true, email: { admin: { enabled: true, recipients: ['office@example.com'] } } };

async function world(stores: FormRaceStores, clock: Clock): Promise<World> {
  const work = new TrackedWork();
  const core = createCore<CoreStores>({ captcha: new StaticCaptchaVerifier(), stores: { ...memoryStores(), ...stores }, clock, backgroundWork: work });
  const create = (slug: string, sections: CreateFormInput['sections']) => core.forms.create.execute(apiKey, { slug, title: { en: slug }, sections, notifications: NOTIFIED } as CreateFormInput);
  const b = await create('companies', [{ fields: [text('Name')] }] as CreateFormInput['sections']);
  const a = await create('people', holderSections(b.id, { employer: 'employer', clients: 'clients' }));
  const submit = (formId: string) => core.forms.submit.execute(apiKey, { formId, submission: { values: { name: 'Ada' } }, mode: 'public' }).then(({ id }) => id);
  const submissions = { a: [await submit(a.id), await submit(a.id)], b: [await submit(b.id), await submit(b.id), await submit(b.id)] };
  const connect = (fieldName: string, relatedSubmissionId: string) => core.forms.connectRelation.execute(apiKey, { submissionId: submissions.a[0]!, fieldName, relatedSubmissionId });
  await connect('employer', submissions.b[0]!);
  await connect('clients', submissions.b[0]!);
  await connect('clients', submissions.b[1]!);
  await work.settled();
  return { core, work, forms: [a.id, b.id], submissions };
}

/** What an operation that answered did, for the checks. */
type Done =
  | { kind: 'deletedForm'; id: string }
  | { kind: 'erased'; id: string }
  | { kind: 'submitted'; id: string; formId: string }
  | { kind: 'connected'; submissionId: string; fieldName: string; relatedId: string }
  | { kind: 'disconnected'; submissionId: string; fieldName: string }
  | { kind: 'updatedHolder' }
  | { kind: 'listed'; formId: string; ids: string[] }
  | { kind: 'other' };

type Operation = RaceOperation<World, Done>;

const at = <T>(list: readonly T[], drawn: number) => list[drawn % list.length]!;

/** The operations a race draws from, over the world's records by index. */
function formOperations(fc: FastCheck): Arbitrary<Operation> {
  const index = fc.nat({ max: 9 });
  const operation = (label: string, run: Operation['run']) => raceOperation(fc, label, run);
  return fc.oneof(
    fc.nat({ max: 1 }).map((form) => operation(`submit(${'AB'[form]})`, async (w) => {
      const formId = w.forms[form]!;
      const { id } = await w.core.forms.submit.execute(apiKey, { formId, submission: { values: { name: 'Grace' } }, mode: 'public' });
      return { kind: 'submitted', id, formId };
    })),
    fc.tuple(index, fc.nat({ max: 1 }), index).map(([s, field, related]) => operation(`connect(A${s}, ${RELATION_FIELDS[field]}, B${related})`, async (w) => {
      const input = { submissionId: at(w.submissions.a, s), fieldName: RELATION_FIELDS[field]!, relatedSubmissionId: at(w.submissions.b, related) };
      await w.core.forms.connectRelation.execute(apiKey, input);
      return { kind: 'connected', submissionId: input.submissionId, fieldName: input.fieldName, relatedId: input.relatedSubmissionId };
    })),
    fc.tuple(index, fc.nat({ max: 1 }), index).map(([s, field, related]) => operation(`disconnect(A${s}, ${RELATION_FIELDS[field]}, B${related})`, async (w) => {
      const input = { submissionId: at(w.submissions.a, s), fieldName: RELATION_FIELDS[field]!, relatedSubmissionId: at(w.submissions.b, related) };
      await w.core.forms.disconnectRelation.execute(apiKey, input);
      return { kind: 'disconnected', submissionId: input.submissionId, fieldName: input.fieldName };
    })),
    fc.tuple(fc.nat({ max: 1 }), index).map(([form, s]) => operation(`erase(${'AB'[form]}${s})`, async (w) => {
      const id = at(form === 0 ? w.submissions.a : w.submissions.b, s);
      await w.core.forms.removeSubmission.execute(editor, { id });
      return { kind: 'erased', id };
    })),
    fc.tuple(fc.nat({ max: 1 }), fc.integer({ min: 1, max: 2 })).map(([form, size]) => operation(`pageSubmissions(${'AB'[form]}, ${size} a page)`, async (w) => {
      const formId = w.forms[form]!;
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { submissions: ReadonlyArray<{ id: string }>; nextCursor: string | null } = await w.core.forms.listSubmissions.execute(apiKey, { formId, limit: String(size), ...(cursor === null ? {} : { cursor }) });
        ids.push(...page.submissions.map((submission) => submission.id));
        cursor = page.nextCursor;
      } while (cursor !== null);
      return { kind: 'listed', formId, ids };
    })),
    fc.nat({ max: 1 }).map((form) => operation(`deleteForm(${'AB'[form]})`, async (w) => {
      const id = w.forms[form]!;
      await w.core.forms.remove.execute(editor, { id });
      return { kind: 'deletedForm', id };
    })),
    fc.constantFrom('rename', 'drop', 'title').map((change) => operation(`updateA(${change})`, async (w) => {
      const [a, b] = w.forms;
      const sections = { rename: holderSections(b, { employer: 'employer', clients: 'customers' }), drop: holderSections(b, { employer: 'employer', clients: null }), title: undefined }[change];
      await w.core.forms.update.execute(apiKey, { id: a, changes: sections ? { sections } : { title: { en: 'People, again' } } });
      return { kind: 'updatedHolder' };
    })),
    fc.tuple(fc.nat({ max: 1 }), fc.nat({ max: SLUGS.length - 1 })).map(([form, slug]) => operation(`reslug(${'AB'[form]}, ${SLUGS[slug]})`, async (w) => {
      await w.core.forms.update.execute(apiKey, { id: w.forms[form]!, changes: { slug: SLUGS[slug] } });
      return { kind: 'other' };
    })),
    fc.nat({ max: SLUGS.length - 1 }).map((slug) => operation(`createForm(${SLUGS[slug]})`, async (w) => {
      await w.core.forms.create.execute(apiKey, { slug: SLUGS[slug], title: { en: 'New' }, sections: [{ fields: [text('Name')] }] } as CreateFormInput);
      return { kind: 'other' };
    })),
  );
}

const idsIn = (value: unknown): string[] => (value === undefined ? [] : Array.isArray(value) ? (value as string[]) : [value as string]);

async function expectConsistent(w: World, done: Done[]): Promise<void> {
  const { stores } = w.core;
  const forms = await stores.forms.list(TENANT, {}, PAGE);
  const slugs = forms.map((form) => form.slug);
  expect(new Set(slugs).size, `slugs ${slugs.join(', ')}`).to.equal(slugs.length);
  for (const form of forms) {
    expect((await stores.forms.findBySlug(TENANT, form.slug))?.id, `form ${form.slug} found by its slug`).to.equal(form.id);
    await w.core.forms.update.execute(apiKey, { id: form.id, changes: { title: { en: 'Renamed after' } } });
  }

  const deletedForms = new Set(done.flatMap((d) => (d.kind === 'deletedForm' ? [d.id] : [])));
  const erased = new Set(done.flatMap((d) => (d.kind === 'erased' ? [d.id] : [])));
  const live = new Map<string, { formId: string; relations: Record<string, unknown> }>();
  for (const form of forms) for (const submission of await stores.submissions.listByForm(TENANT, form.id, PAGE)) live.set(submission.id, submission);
  for (const formId of deletedForms) expect(await stores.submissions.listByForm(TENANT, formId, PAGE), `submissions of deleted form ${formId}`).to.deep.equal([]);
  for (const [id, submission] of live) {
    for (const [fieldName, value] of Object.entries(submission.relations)) {
      for (const relatedId of idsIn(value)) expect(live.has(relatedId), `${id}.${fieldName} names ${relatedId}, which is gone`).to.equal(true);
    }
  }

  const [a, b] = w.forms;
  const expected = [...w.submissions.a.map((id) => ({ id, formId: a })), ...w.submissions.b.map((id) => ({ id, formId: b }))];
  for (const d of done) if (d.kind === 'submitted') expected.push({ id: d.id, formId: d.formId });
  for (const { id, formId } of expected) expect(live.has(id), `submission ${id}`).to.equal(!erased.has(id) && !deletedForms.has(formId));
  // A form's submissions paged through while others write: none twice, none there throughout missed.
  for (const d of done) {
    if (d.kind !== 'listed') continue;
    expect(new Set(d.ids).size, `a paged submissions list shows none twice: ${d.ids.join(', ')}`).to.equal(d.ids.length);
    for (const { id, formId } of expected) {
      if (formId === d.formId && w.submissions[formId === a ? 'a' : 'b'].includes(id) && !erased.has(id) && !deletedForms.has(formId)) expect(d.ids, `a paged list of ${formId} shows ${id}, there throughout`).to.include(id);
    }
  }
  // A notification job goes with its submission (its message carries the values); each one left has its job.
  const jobs = await stores.outbox.listByTenant(TENANT);
  for (const job of jobs) expect(live.has(job.message.submissionId), `a notification job of ${job.message.submissionId}, which is gone`).to.equal(true);
  for (const { id } of expected) if (live.has(id)) expect(jobs.some((job) => job.message.submissionId === id), `the notification job of ${id}`).to.equal(true);

  for (const d of done) {
    if (d.kind !== 'connected' || !live.has(d.submissionId) || !live.has(d.relatedId)) continue;
    // Another write to the same field, or a change of the holder's fields, may take the id.
    const contested = done.some((o) => o !== d && (o.kind === 'updatedHolder' || ((o.kind === 'connected' || o.kind === 'disconnected') && o.submissionId === d.submissionId && o.fieldName === d.fieldName)));
    if (contested) continue;
    expect(idsIn(live.get(d.submissionId)!.relations[d.fieldName]), `connected ${d.fieldName} of ${d.submissionId}`).to.include(d.relatedId);
  }
}

/** Registers the races on the repositories `storesFor` makes, one fresh set per race, their calls waiting at `gate`. */
export function formRacesContract(name: string, storesFor: (gate: RaceGate) => Promise<FormRaceStores>, options: RaceOptions = {}): void {
  describeRaces({ suite: `Form races contract: ${name}`, holds: 'racing form, submission and relation writes leave slugs unique, no relation naming a submission that is gone, and every answered write in place', operations: formOperations, world, settle: (w) => w.work.settled(), check: expectConsistent }, storesFor, options);
}
