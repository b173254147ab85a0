/**
 * Decision 0766: a connect that checked its related submission before an erasure of it, and
 * writes after, ends with no dangling id behind a 2xx. The seam pauses the connect at a chosen
 * point while the erasure runs whole; the in-memory store decides nothing by timing.
 */
import { expect } from 'chai';
import { MemoryArticleRepository } from '../memory/memory-article.repository.js';
import { MemoryCommentRepository } from '../memory/memory-comment.repository.js';
import { MemoryFormRepository } from '../memory/memory-form.repository.js';
import { MemoryNotificationOutbox } from '../memory/memory-notification-outbox.js';
import { MemoryReactionRepository } from '../memory/memory-reaction.repository.js';
import { MemorySubmissionRepository } from '../memory/memory-submission.repository.js';
import { MemoryWebhookDeliveryOutbox } from '../memory/memory-webhook-delivery.outbox.js';
import { MemoryWebhookRepository } from '../memory/memory-webhook.repository.js';
import { ManualClock } from '../shared/clock.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { silentLogger } from '../shared/logger.js';
import { userCaller } from '../testing/callers.js';
import { domainErrorOf } from '../testing/expect-domain-error.js';
import { formRecord, submissionRecord } from '../testing/form-fixtures.js';
import { CreateWebhook } from '../webhooks/create-webhook.use-case.js';
import { EventWitnessReader } from '../webhooks/event-witness-reader.js';
import { WebhookEvents } from '../webhooks/webhook-events.js';
import { ConnectRelation } from './connect-relation.use-case.js';
import { DeleteSubmission } from './delete-submission.use-case.js';
import type { FormField } from './form.js';
import type { ConnectRelationCommand, ConnectRelationResult } from './forms.ports.js';

const admin = userCaller('acme', 'admin-1', 'admin');

/** Where the seam holds a connect: before its write, or between its write and the re-read of the related submission. */
type Pause = 'beforeWrite' | 'beforeReRead';

/**
 * The embedded store with a hold in `connectRelation`. `beforeReRead` acts out a store whose
 * write and re-read are two steps (as on MongoDB): the result's `relatedExists` is read again
 * after the hold.
 */
class PausingSubmissions extends MemorySubmissionRepository {
  pause: Pause | undefined;
  #reached: () => void = () => undefined;
  #release: () => void = () => undefined;
  reached = Promise.resolve();

  hold(pause: Pause): () => void {
    this.pause = pause;
    this.reached = new Promise((resolve) => (this.#reached = resolve));
    const released = new Promise<void>((resolve) => (this.#release = resolve));
    this.released = released;
    return () => this.#release();
  }

  released = Promise.resolve();

  override async connectRelation(command: ConnectRelationCommand): Promise<ConnectRelationResult> {
    const pause = this.pause;
    this.pause = undefined;
    if (pause === 'beforeWrite') await this.#wait();
    const result = await super.connectRelation(command);
    if (pause !== 'beforeReRead' || (result.status !== 'connected' && result.status !== 'unchanged')) return result;
    await this.#wait();
    return { ...result, relatedExists: (await this.findById(command.tenantId, command.relatedId)) !== null };
  }

  async #wait(): Promise<void> {
    this.#reached();
    await this.released;
  }
}

async function setup() {
  const clock = new ManualClock('2026-03-04T05:06:07.890Z');
  const forms = new MemoryFormRepository();
  const submissions = new PausingSubmissions();
  const webhooks = new MemoryWebhookRepository();
  const deliveries = new MemoryWebhookDeliveryOutbox();
  const events = new WebhookEvents(webhooks, deliveries, clock, silentLogger);
  await new CreateWebhook(webhooks, { isAllowed: async () => true }, clock).execute(admin, { url: 'https://hooks.example/', events: ['*'] });
  const company = formRecord('acme', 'company');
  const relationField = (name: string, multiple: boolean): FormField => ({
    name, type: 'relation', label: { en: name }, required: false, placeholder: {}, relation: { formId: company.id, multiple },
  });
  const person = formRecord('acme', 'person', { sections: [{ title: {}, description: {}, fields: [relationField('employer', false), relationField('clients', true)] }] });
  for (const form of [company, person]) await forms.insert(form);
  const [source, acme, globex] = [submissionRecord('acme', person.id), submissionRecord('acme', company.id), submissionRecord('acme', company.id)];
  for (const submission of [source, acme, globex]) await submissions.insert(submission);
  const connectUseCase = new ConnectRelation(forms, submissions, clock, events);
  const erase = new DeleteSubmission(forms, submissions, new MemoryNotificationOutbox(), events);
  return {
    submissions, deliveries, source, acme, globex,
    connect: (fieldName: string, related: string, submissionId = source.id) => connectUseCase.execute(admin, { submissionId, fieldName, relatedSubmissionId: related }),
    erase: (id: string) => erase.execute(admin, { id }),
    relations: async () => (await submissions.findById('acme', source.id))!.relations,
    /** Events by status: the erasures' and the successful connects' are confirmed (pending), none is left unconfirmed. */
    events: () => deliveries.countByStatus(),
  };
}

type Fixture = Awaited<ReturnType<typeof setup>>;

describe('ConnectRelation racing an erasure of the related submission (decision 0766)', () => {
  it('paused after its check and before its write while the erasure runs: 404, the list unchanged, no event', async () => {
    const f = await setup();
    const release = f.submissions.hold('beforeWrite');
    const connecting = domainErrorOf(f.connect('clients', f.acme.id));
    await f.submissions.reached;
    await f.erase(f.acme.id);
    release();
    expect((await connecting).code).to.equal(ErrorCodes.RELATED_SUBMISSION_NOT_FOUND);
    expect(await f.relations()).to.deep.equal({ clients: [] });
    expect(await f.events()).to.deep.include({ unconfirmed: 0, pending: 1 });
  });

  /** employer = globex; a connect of acme held at `pause` while `meanwhile` runs; its refusal's code. */
  const raceOnEmployer = async (pause: Pause, meanwhile: (f: Fixture) => Promise<void>) => {
    const f = await setup();
    await f.connect('employer', f.globex.id);
    const release = f.submissions.hold(pause);
    const connecting = domainErrorOf(f.connect('employer', f.acme.id));
    await f.submissions.reached;
    await meanwhile(f);
    release();
    return { f, code: (await connecting).code };
  };

  it('on a single-value relation, puts back the id the write replaced', async () => {
    const { f, code } = await raceOnEmployer('beforeWrite', (f) => f.erase(f.acme.id));
    expect(code).to.equal(ErrorCodes.RELATED_SUBMISSION_NOT_FOUND);
    expect(await f.relations()).to.deep.equal({ employer: f.globex.id });
    expect(await f.events()).to.deep.include({ unconfirmed: 0, pending: 2 });
  });

  it('paused between write and re-read (two store steps), after the erasure cleaned up: 404, the replaced id back', async () => {
    const { f, code } = await raceOnEmployer('beforeReRead', async (f) => {
      expect(await f.relations()).to.deep.equal({ employer: f.acme.id });
      await f.erase(f.acme.id);
      expect(await f.relations()).to.deep.equal({});
    });
    expect(code).to.equal(ErrorCodes.RELATED_SUBMISSION_NOT_FOUND);
    expect(await f.relations()).to.deep.equal({ employer: f.globex.id });
  });

  it('does not put back a replaced id that was erased meanwhile too', async () => {
    const { f, code } = await raceOnEmployer('beforeReRead', async (f) => {
      await f.erase(f.globex.id);
      await f.erase(f.acme.id);
    });
    expect(code).to.equal(ErrorCodes.RELATED_SUBMISSION_NOT_FOUND);
    expect(await f.relations()).to.deep.equal({});
  });

  describe('on a single-value field that still holds a list (the form made it single-value since)', () => {
    /** employer holds [globex, acme]; a connect of a new company held at `pause` while `meanwhile` runs. */
    const raceOnList = async (pause: Pause, meanwhile: (f: Fixture, late: string) => Promise<void>) => {
      const f = await setup();
      const holder = submissionRecord('acme', f.source.formId, { relations: { employer: [f.globex.id, f.acme.id] } });
      await f.submissions.insert(holder);
      const late = submissionRecord('acme', f.acme.formId);
      await f.submissions.insert(late);
      const release = f.submissions.hold(pause);
      const connecting = domainErrorOf(f.connect('employer', late.id, holder.id));
      await f.submissions.reached;
      await meanwhile(f, late.id);
      release();
      return { f, code: (await connecting).code, relations: (await f.submissions.findById('acme', holder.id))!.relations };
    };

    it('puts the list back when the related submission was erased between its check and its write', async () => {
      const { f, code, relations } = await raceOnList('beforeWrite', (f, late) => f.erase(late));
      expect(code).to.equal(ErrorCodes.RELATED_SUBMISSION_NOT_FOUND);
      expect(relations).to.deep.equal({ employer: [f.globex.id, f.acme.id] });
    });

    it('puts back only the ids of the list that were not erased after its write too', async () => {
      const { f, code, relations } = await raceOnList('beforeReRead', async (f, late) => {
        await f.erase(f.acme.id);
        await f.erase(late);
      });
      expect(code).to.equal(ErrorCodes.RELATED_SUBMISSION_NOT_FOUND);
      expect(relations).to.deep.equal({ employer: [f.globex.id] });
    });
  });

  it('paused after a write the re-read confirmed: 200, and the erasure that follows takes the id out', async () => {
    const f = await setup();
    const release = f.submissions.hold('beforeReRead');
    const connecting = f.connect('clients', f.acme.id);
    await f.submissions.reached;
    release();
    expect((await connecting).relations).to.deep.equal({ clients: [f.acme.id] });
    await f.erase(f.acme.id);
    expect(await f.relations()).to.deep.equal({ clients: [] });
    expect(await f.events()).to.deep.include({ unconfirmed: 0, pending: 2 });
  });

  it('a retry after a connect cut off before its re-read repairs the dangling ids it left (404)', async () => {
    const f = await setup();
    const ghost = submissionRecord('acme', f.acme.formId).id;
    const dangling = submissionRecord('acme', f.source.formId, { relations: { clients: [f.acme.id, ghost], employer: ghost } });
    await f.submissions.insert(dangling);
    for (const fieldName of ['clients', 'employer']) {
      expect((await domainErrorOf(f.connect(fieldName, ghost, dangling.id))).code).to.equal(ErrorCodes.RELATED_SUBMISSION_NOT_FOUND);
    }
    const repaired = await f.submissions.findById('acme', dangling.id);
    expect(repaired?.relations).to.deep.equal({ clients: [f.acme.id] });
    expect(repaired?.updatedAt).to.deep.equal(dangling.updatedAt);
    expect(await f.events()).to.deep.include({ unconfirmed: 0, pending: 0 });
  });

  it('settles an event left unconfirmed only while the related submission exists', async () => {
    const f = await setup();
    const ghost = submissionRecord('acme', f.acme.formId).id;
    const holder = submissionRecord('acme', f.source.formId, { relations: { clients: [f.acme.id, ghost] } });
    await f.submissions.insert(holder);
    const stores = { forms: new MemoryFormRepository(), submissions: f.submissions, articles: new MemoryArticleRepository(), comments: new MemoryCommentRepository(), reactions: new MemoryReactionRepository() };
    const reader = new EventWitnessReader(stores);
    const witness = (relatedId: string) => ({ kind: 'relation', submissionId: holder.id, fieldName: 'clients', relatedId }) as const;
    expect(await reader.dataIfHappened('acme', witness(f.acme.id))).to.deep.include({ id: holder.id });
    expect(await reader.dataIfHappened('acme', witness(ghost))).to.equal(undefined);
  });
});
