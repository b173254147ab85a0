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
 *   even one a dispatch pass racing the delete was sending, and every submission left has its job;
 * - every write that answered has its webhook event once (`form.created`, `.updated`,
 *   `.deleted`, `.submitted`, `submission.deleted`; a relation event when the relation changed),
 *   a refused write none, no event is left unconfirmed, and a webhook deleted or disabled by
 *   the race receives nothing once it is over (`race-events.ts`).
 * Core's forced interleavings (the connect and delete specs) pin single orders; this draws them.
 * RACE_RUNS (default 1000), RACE_SEED, RACE_PATH and RACE_MAX tune it (`describeRaces`).
 * `formCrashesContract` kills some of these writes at each store call, on the same world, and holds the
 * same checks after a restart and a retry (`crash-points.ts`).
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
import { describeCrashes, type CrashOperation } from './crash-points.js';
import { describeRaces, raceOperation, type FastCheck, type RaceOperation } from './drawn-races.js';
import { deletingSecondWebhook, eventLines, RaceEvents, webhookOperations, type SentEvent } from './race-events.js';
import type { RaceGate, RaceOptions } from '../race-gates.js';

/**
 * The repositories the form races run on, their calls waiting at `gate`; a fresh, empty set per
 * race. The webhook stores are the embedded ones unless given.
 */
export type FormRaceStores = Pick<CoreStores, 'forms' | 'submissions' | 'outbox'> & Partial<Pick<CoreStores, 'webhooks' | 'webhookDeliveries'>>;

const TENANT = 'acme';
const apiKey = anonymousCaller(TENANT);
const editor = userCaller(TENANT, 'ed-1', 'editor');
const PAGE = { after: null, limit: 1000 } as const;
const SLUGS = ['alpha', 'beta', 'gamma'];
const RELATION_FIELDS = ['employer', 'clients'] as const;

/** The records made before the race, named by index in the drawn operations. */
interface World {
  readonly core: Core<CoreStores>;
  readonly events: RaceEvents;
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
const NOTIFIED = { enabled: true, email: { admin: { enabled: true, recipients: ['office@example.com'] } }, push: { admin: { enabled: true } } };

/** The races' core: webhook events recorded, e-mails sent nowhere, a submit's enqueue tracked in `work`. */
function coreFor(stores: CoreStores, clock: Clock, events: RaceEvents, work: TrackedWork): Core<CoreStores> {
  return createCore<CoreStores>({ captcha: new StaticCaptchaVerifier(), stores, clock, backgroundWork: work, webhooks: events.options, notifications: { email: { send: async () => {} } } });
}

async function world(stores: FormRaceStores, clock: Clock): Promise<World> {
  const work = new TrackedWork();
  const events = new RaceEvents();
  const core = coreFor({ ...memoryStores(), ...stores }, clock, events, work);
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
  await events.subscribe(core, TENANT);
  return { core, events, work, forms: [a.id, b.id], submissions };
}

/** The world after a restart: a new core on the same stores, which settles what the dead one left unconfirmed. */
async function restart(w: World, clock: Clock): Promise<World> {
  const work = new TrackedWork();
  const core = coreFor(w.core.stores, clock, w.events, work);
  await w.events.restarted(core);
  return { ...w, core, work };
}

/** What an operation that answered did, for the checks. */
type Done =
  | { kind: 'deletedForm'; id: string }
  | { kind: 'erased'; id: string }
  | { kind: 'submitted'; id: string; formId: string }
  | { kind: 'connected'; submissionId: string; fieldName: string; relatedId: string }
  | { kind: 'disconnected'; submissionId: string; fieldName: string }
  | { kind: 'updatedHolder'; id: string }
  | { kind: 'updatedForm'; id: string }
  | { kind: 'createdForm'; id: string }
  | { kind: 'listed'; formId: string; ids: string[] }
  | { kind: 'other' };

type Operation = RaceOperation<World, Done>;

const at = <T>(list: readonly T[], drawn: number) => list[drawn % list.length]!;

/** Drawn into a race: the crash contract's writes are among the operations of the races too. */
const drawn = (fc: FastCheck, { label, run }: CrashOperation<World, Done>) => raceOperation(fc, label, run);

/** A0..: A's submission `s`, its relation field `field`, B's submission `related` (indexes wrap). */
const relationInput = (w: World, s: number, field: number, related: number) => ({ submissionId: at(w.submissions.a, s), fieldName: RELATION_FIELDS[field]!, relatedSubmissionId: at(w.submissions.b, related) });

function connecting(s: number, field: number, related: number): CrashOperation<World, Done> {
  const done = (w: World): Done => {
    const { submissionId, fieldName, relatedSubmissionId } = relationInput(w, s, field, related);
    return { kind: 'connected', submissionId, fieldName, relatedId: relatedSubmissionId };
  };
  const run = async (w: World) => (await w.core.forms.connectRelation.execute(apiKey, relationInput(w, s, field, related)), done(w));
  return { label: `connect(A${s}, ${RELATION_FIELDS[field]}, B${related})`, run, done };
}

function disconnecting(s: number, field: number, related: number): CrashOperation<World, Done> {
  const done = (w: World): Done => ({ kind: 'disconnected', submissionId: at(w.submissions.a, s), fieldName: RELATION_FIELDS[field]! });
  const run = async (w: World) => (await w.core.forms.disconnectRelation.execute(apiKey, relationInput(w, s, field, related)), done(w));
  return { label: `disconnect(A${s}, ${RELATION_FIELDS[field]}, B${related})`, run, done };
}

function erasing(form: number, s: number): CrashOperation<World, Done> {
  const id = (w: World) => at(form === 0 ? w.submissions.a : w.submissions.b, s);
  const done = (w: World): Done => ({ kind: 'erased', id: id(w) });
  return { label: `erase(${'AB'[form]}${s})`, run: async (w) => (await w.core.forms.removeSubmission.execute(editor, { id: id(w) }), done(w)), done };
}

function deletingForm(form: number): CrashOperation<World, Done> {
  const done = (w: World): Done => ({ kind: 'deletedForm', id: w.forms[form]! });
  return { label: `deleteForm(${'AB'[form]})`, run: async (w) => (await w.core.forms.remove.execute(editor, { id: w.forms[form]! }), done(w)), done };
}

/**
 * A submission to A or B. For the crash contract the notification jobs its answer leaves to
 * enqueue are waited for too (`settlingJobs`: they are part of the write). Once it was faulted,
 * the submission, its `form.submitted` event and (after the restart's dispatch pass, which
 * enqueues what a killed submit did not: decision 0798) its jobs, each once, are there, or none.
 */
function submitting(form: number): CrashOperation<World, Done> {
  return {
    label: `submit(${'AB'[form]})`,
    run: async (w) => {
      const formId = w.forms[form]!;
      const { id } = await w.core.forms.submit.execute(apiKey, { formId, submission: { values: { name: 'Grace' } }, mode: 'public' });
      return { kind: 'submitted', id, formId };
    },
    landed: async (w) => {
      const formId = w.forms[form]!;
      const known = form === 0 ? w.submissions.a : w.submissions.b;
      const added = (await w.core.stores.submissions.listByForm(TENANT, formId, PAGE)).find((submission) => !known.includes(submission.id));
      return added && { kind: 'submitted', id: added.id, formId };
    },
  };
}

/** `write`, answering once the work its answer left running (a submit's enqueue) has finished. */
function settlingJobs(write: CrashOperation<World, Done>): CrashOperation<World, Done> {
  const run = async (w: World) => {
    const done = await write.run(w);
    await w.work.settled();
    return done;
  };
  return { ...write, run };
}

function creatingForm(slug: number): CrashOperation<World, Done> {
  return {
    label: `createForm(${SLUGS[slug]})`,
    run: async (w) => ({ kind: 'createdForm', id: (await w.core.forms.create.execute(apiKey, { slug: SLUGS[slug], title: { en: 'New' }, sections: [{ fields: [text('Name')] }] } as CreateFormInput)).id }),
    landed: async (w) => {
      const form = await w.core.stores.forms.findBySlug(TENANT, SLUGS[slug]!);
      return form ? { kind: 'createdForm', id: form.id } : undefined;
    },
  };
}

const RETITLED = { en: 'People, again' };
/** A's title changed (`updateA(title)` of the races); judged by whether it landed. */
const retitlingA: CrashOperation<World, Done> = {
  label: 'updateA(title)',
  run: async (w) => (await w.core.forms.update.execute(apiKey, { id: w.forms[0], changes: { title: RETITLED } }), { kind: 'updatedHolder', id: w.forms[0] }),
  landed: async (w) => ((await w.core.stores.forms.findById(TENANT, w.forms[0]))?.title.en === RETITLED.en ? { kind: 'updatedHolder', id: w.forms[0] } : undefined),
};

/**
 * The writes the crash contract faults at each store call: the erasure of a submission whose
 * relations hold others (A0) and of one that others' relations hold (B0), the delete of the
 * form that holds relations (A) and of the form they target (B), a connect that adds to the
 * multiple field, one that replaces the single field's id, a disconnect, and the delete of the
 * second webhook with a delivery in its log, each sent again;
 * a submission with its notification jobs, a form created, A's title changed, each judged by
 * whether it landed.
 */
const CRASHING: ReadonlyArray<CrashOperation<World, Done>> = [
  ...[erasing(0, 0), erasing(1, 0), deletingForm(0), deletingForm(1), connecting(1, 1, 2), connecting(0, 0, 1), disconnecting(0, 1, 1)],
  deletingSecondWebhook<World, Done>({ kind: 'other' }, (w) => w.core.forms.update.execute(apiKey, { id: w.forms[1], changes: { title: { en: 'Companies' } } })),
  ...[settlingJobs(submitting(0)), creatingForm(0), retitlingA],
];

/** The operations a race draws from, over the world's records by index. */
function formOperations(fc: FastCheck): Arbitrary<Operation> {
  const index = fc.nat({ max: 9 });
  const operation = (label: string, run: Operation['run']) => raceOperation(fc, label, run);
  return fc.oneof(
    ...webhookOperations<World, Done>(fc, { kind: 'other' }),
    fc.constant(operation('dispatchNotifications', async (w) => {
      await w.core.notifications.dispatch.execute();
      return { kind: 'other' };
    })),
    fc.nat({ max: 1 }).map((form) => drawn(fc, submitting(form))),
    fc.tuple(index, fc.nat({ max: 1 }), index).map(([s, field, related]) => drawn(fc, connecting(s, field, related))),
    fc.tuple(index, fc.nat({ max: 1 }), index).map(([s, field, related]) => drawn(fc, disconnecting(s, field, related))),
    fc.tuple(fc.nat({ max: 1 }), index).map(([form, s]) => drawn(fc, erasing(form, s))),
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
    fc.nat({ max: 1 }).map((form) => drawn(fc, deletingForm(form))),
    fc.constantFrom('rename', 'drop', 'title').map((change) => operation(`updateA(${change})`, async (w) => {
      const [a, b] = w.forms;
      const sections = { rename: holderSections(b, { employer: 'employer', clients: 'customers' }), drop: holderSections(b, { employer: 'employer', clients: null }), title: undefined }[change];
      if (!sections) return retitlingA.run(w);
      await w.core.forms.update.execute(apiKey, { id: a, changes: { sections } });
      return { kind: 'updatedHolder', id: a };
    })),
    fc.tuple(fc.nat({ max: 1 }), fc.nat({ max: SLUGS.length - 1 })).map(([form, slug]) => operation(`reslug(${'AB'[form]}, ${SLUGS[slug]})`, async (w) => {
      const id = w.forms[form]!;
      await w.core.forms.update.execute(apiKey, { id, changes: { slug: SLUGS[slug] } });
      return { kind: 'updatedForm', id };
    })),
    fc.nat({ max: SLUGS.length - 1 }).map((slug) => drawn(fc, creatingForm(slug))),
  );
}

const idsIn = (value: unknown): string[] => (value === undefined ? [] : Array.isArray(value) ? (value as string[]) : [value as string]);

/**
 * What reads show whatever the writes did, even one killed half-way (the crash contract): no two
 * forms share a slug and each is found by its own; a form that is gone keeps no submission; no
 * relation names a submission that is gone; no notification job is left of one. Answers the
 * forms and the submissions there.
 */
async function expectIntact(w: World): Promise<{ forms: ReadonlyArray<{ id: string }>; live: Map<string, { formId: string; relations: Record<string, unknown> }> }> {
  const { stores } = w.core;
  const forms = await stores.forms.list(TENANT, {}, PAGE);
  const slugs = forms.map((form) => form.slug);
  expect(new Set(slugs).size, `slugs ${slugs.join(', ')}`).to.equal(slugs.length);
  for (const form of forms) expect((await stores.forms.findBySlug(TENANT, form.slug))?.id, `form ${form.slug} found by its slug`).to.equal(form.id);
  for (const formId of w.forms) {
    if (!forms.some((form) => form.id === formId)) expect(await stores.submissions.listByForm(TENANT, formId, PAGE), `submissions of deleted form ${formId}`).to.deep.equal([]);
  }
  const live = new Map<string, { formId: string; relations: Record<string, unknown> }>();
  for (const form of forms) for (const submission of await stores.submissions.listByForm(TENANT, form.id, PAGE)) live.set(submission.id, submission);
  for (const [id, submission] of live) {
    for (const [fieldName, value] of Object.entries(submission.relations)) {
      for (const relatedId of idsIn(value)) expect(live.has(relatedId), `${id}.${fieldName} names ${relatedId}, which is gone`).to.equal(true);
    }
  }
  // A notification job goes with its submission: its message carries the values.
  for (const job of await stores.outbox.listByTenant(TENANT)) expect(live.has(job.message.submissionId), `a notification job of ${job.message.submissionId}, which is gone`).to.equal(true);
  return { forms, live };
}

async function expectConsistent(w: World, done: Done[]): Promise<void> {
  expectEvents(w, done, await w.events.delivered(w.core)); // before the renames below write events of their own
  const { stores } = w.core;
  const { forms, live } = await expectIntact(w);
  for (const form of forms) await w.core.forms.update.execute(apiKey, { id: form.id, changes: { title: { en: 'Renamed after' } } });

  const deletedForms = new Set(done.flatMap((d) => (d.kind === 'deletedForm' ? [d.id] : [])));
  const erased = new Set(done.flatMap((d) => (d.kind === 'erased' ? [d.id] : [])));
  for (const formId of deletedForms) expect(forms.some((form) => form.id === formId), `deleted form ${formId}`).to.equal(false);

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
  // Each submission left has its notification job, once (after a crash, the restart's dispatch
  // pass enqueued it: decision 0798).
  const jobs = await stores.outbox.listByTenant(TENANT);
  for (const { id } of expected) {
    if (!live.has(id)) continue;
    const kinds = jobs.filter((job) => job.message.submissionId === id).map((job) => `${job.channel}/${job.audience}`);
    expect(kinds, `the notification jobs of ${id}`).to.have.length.greaterThan(0);
    expect(new Set(kinds).size, `the notification jobs of ${id}, each once: ${kinds.join(', ')}`).to.equal(kinds.length);
  }

  for (const d of done) {
    if (d.kind !== 'connected' || !live.has(d.submissionId) || !live.has(d.relatedId)) continue;
    // Another write to the same field, or a change of the holder's fields, may take the id.
    const contested = done.some((o) => o !== d && (o.kind === 'updatedHolder' || ((o.kind === 'connected' || o.kind === 'disconnected') && o.submissionId === d.submissionId && o.fieldName === d.fieldName)));
    if (contested) continue;
    expect(idsIn(live.get(d.submissionId)!.relations[d.fieldName]), `connected ${d.fieldName} of ${d.submissionId}`).to.include(d.relatedId);
  }
}

/**
 * Each answered write's event once and a refused write's none. A connect or disconnect sends
 * its event when it changed the relation: before the race A0 held B0 as its employer and B0, B1
 * as its clients, so a connect changes it when it is the only write to its field in a race that
 * does not update A or erase the id, and names a submission the field did not hold.
 */
function expectEvents(w: World, done: Done[], events: SentEvent[]): void {
  const expected: string[] = [];
  for (const d of done) {
    if (d.kind === 'submitted') expected.push(`form.submitted ${d.id}`);
    if (d.kind === 'erased') expected.push(`submission.deleted ${d.id}`);
    if (d.kind === 'deletedForm') expected.push(`form.deleted ${d.id}`);
    if (d.kind === 'createdForm') expected.push(`form.created ${d.id}`);
    if (d.kind === 'updatedForm' || d.kind === 'updatedHolder') expected.push(`form.updated ${d.id}`);
  }
  const relational = (event: SentEvent) => event.type.startsWith('submission.relation.');
  expect(eventLines(events.filter((event) => !relational(event))), 'the events of the answered writes').to.deep.equal(expected.sort());
  for (const event of events.filter((e) => e.type === 'submission.deleted')) expect(event.data, 'a submission.deleted names its form').to.have.keys('id', 'formId');

  const held: Record<string, string[]> = { employer: [w.submissions.b[0]!], clients: [w.submissions.b[0]!, w.submissions.b[1]!] };
  const holderUpdated = done.some((d) => d.kind === 'updatedHolder');
  for (const kind of ['connected', 'disconnected'] as const) {
    const answered = done.filter((d): d is Extract<Done, { kind: 'connected' | 'disconnected' }> => d.kind === kind);
    for (const submissionId of w.submissions.a) {
      const own = answered.filter((d) => d.submissionId === submissionId);
      const sent = events.filter((event) => event.type === `submission.relation.${kind}` && event.data.id === submissionId).length;
      // An uncontested connect changed the relation exactly when its field did not hold the id. An
      // erasure of the id (or of its form) contests it too: it takes the id out before it deletes
      // the submission, so a connect in between puts it back, and then withdraws it.
      const uncontested = own.filter((d): d is Extract<Done, { kind: 'connected' }> => {
        if (d.kind !== 'connected' || holderUpdated) return false;
        return !done.some((o) => {
          if (o.kind === 'erased') return o.id === d.relatedId;
          if (o.kind === 'deletedForm') return o.id === w.forms[1];
          return o !== d && (o.kind === 'connected' || o.kind === 'disconnected') && o.submissionId === d.submissionId && o.fieldName === d.fieldName;
        });
      });
      const changing = uncontested.filter((d) => !(submissionId === w.submissions.a[0] ? held[d.fieldName]! : []).includes(d.relatedId)).length;
      expect(sent, `submission.relation.${kind} events of ${submissionId}`).to.be.within(changing, own.length - (uncontested.length - changing));
    }
  }
  const holders = new Set(w.submissions.a);
  for (const event of events.filter(relational)) expect(holders.has(event.data.id!), 'a relation event names a submission of A').to.equal(true);
}

/** Registers the races on the repositories `storesFor` makes, one fresh set per race, their calls waiting at `gate`. */
export function formRacesContract(name: string, storesFor: (gate: RaceGate) => Promise<FormRaceStores>, options: RaceOptions = {}): void {
  describeRaces({ suite: `Form races contract: ${name}`, holds: 'racing form, submission and relation writes leave slugs unique, no relation naming a submission that is gone, and every answered write in place', operations: formOperations, world, settle: (w) => w.work.settled(), check: expectConsistent }, storesFor, options);
}

/**
 * Registers the crash contract on the repositories `storesFor` makes, one fresh set per run:
 * erasures, form deletes, connects and a disconnect killed at each of their store calls, then
 * retried after a restart (`crash-points.ts`). Reads must be intact at every crash point
 * (`expectIntact`), and the retry must leave what the race contract's checks ask of one
 * answered write, its webhook event once among them.
 */
export function formCrashesContract(name: string, storesFor: (gate: RaceGate) => Promise<FormRaceStores>): void {
  describeCrashes({ suite: `Form crashes contract: ${name}`, operations: CRASHING, world, restart, intact: async (w) => void (await expectIntact(w)), check: expectConsistent }, storesFor);
}
