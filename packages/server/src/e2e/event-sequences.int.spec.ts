/**
 * Random sequences of the operations that send webhook events (CONTRACT §7), one request after
 * another, with a subscription to every event: once a sequence is done, the subscriber has
 * received exactly one event (one `webhook-id`) per change the answers reported, signed, and
 * none for a request that changed nothing (an empty update, a connect already made, a reaction
 * that moved no total, a second approval). On both test storages; the helpers and settings are
 * in testing/command-sequences.ts.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { at, describeSequences, expectStatus, weighted, type SequenceService } from '../testing/command-sequences.js';
import { engagementClient } from '../testing/engagement-client.js';
import { FAST_WEBHOOKS, StandardWebhookReceiver } from '../testing/standard-webhook.receiver.js';

interface EventsModel {
  readonly forms: string[];
  /** Submission id → its `updatedAt` as last answered: a relation call that moves it changed something. */
  readonly submissions: Map<string, { readonly formId: string; updatedAt: string }>;
  /** Article id → its totals as last answered. */
  readonly articles: Map<string, { likes: number; dislikes: number }>;
  readonly comments: Map<string, { readonly articleId: string; approved: boolean }>;
  /** `<type> <id>` of every event the answers say happened. */
  readonly expected: string[];
  /** How many requests the subscriber had received when the run began: the run's come after. */
  readonly from: number;
}

interface Service extends SequenceService {
  readonly receiver: StandardWebhookReceiver;
  /** A slug no run has used yet: the runs share one service. */
  slug(): string;
}

type EventsCommand = fc.AsyncCommand<EventsModel, Service>;

const ids = <K>(records: ReadonlyMap<K, unknown>) => [...records.keys()];

class CreateForm implements EventsCommand {
  constructor(readonly related: number | null) {}
  check = () => true;
  async run(model: EventsModel, { api, slug }: Service) {
    const fields: unknown[] = [{ name: 'text', type: 'text', label: { en: 'Text' } }];
    if (this.related !== null && model.forms.length > 0) {
      fields.push({ name: 'link', type: 'relation', label: { en: 'Link' }, relation: { formId: at(model.forms, this.related), multiple: true } });
    }
    const res = await api.call('POST', '/forms/create', { body: { title: { en: 'Events' }, slug: slug(), sections: [{ fields }] } });
    expectStatus(res, [201], 'form create');
    model.forms.push(res.body.data.form.id);
    model.expected.push(`form.created ${res.body.data.form.id}`);
  }
  toString = () => `createForm(related ${this.related})`;
}

/** An update of the title, or the no-op `{}`, which sends nothing. */
class UpdateForm implements EventsCommand {
  constructor(readonly form: number, readonly empty: boolean) {}
  check = (model: Readonly<EventsModel>) => model.forms.length > 0;
  async run(model: EventsModel, { api }: Service) {
    const id = at(model.forms, this.form);
    expectStatus(await api.call('PATCH', `/forms/update/${id}`, { body: this.empty ? {} : { title: { en: 'Renamed' } } }), [200], 'form update');
    if (!this.empty) model.expected.push(`form.updated ${id}`);
  }
  toString = () => `updateForm(${this.form}${this.empty ? ', {}' : ''})`;
}

/** One `form.deleted`, none for the submissions it takes along (decision 0783). */
class DeleteForm implements EventsCommand {
  constructor(readonly form: number) {}
  check = (model: Readonly<EventsModel>) => model.forms.length > 0;
  async run(model: EventsModel, { api, editor }: Service) {
    const id = at(model.forms, this.form);
    expectStatus(await api.call('DELETE', `/forms/delete/${id}`, { headers: editor }), [200], 'form delete');
    model.forms.splice(model.forms.indexOf(id), 1);
    for (const [submission, { formId }] of model.submissions) if (formId === id) model.submissions.delete(submission);
    model.expected.push(`form.deleted ${id}`);
  }
  toString = () => `deleteForm(${this.form})`;
}

class Submit implements EventsCommand {
  constructor(readonly form: number) {}
  check = (model: Readonly<EventsModel>) => model.forms.length > 0;
  async run(model: EventsModel, { api }: Service) {
    const formId = at(model.forms, this.form);
    const res = await api.call('POST', `/forms/${formId}/submit`, { body: { values: { text: 'Hello' } } });
    expectStatus(res, [201], 'submit');
    const { id, updatedAt } = res.body.data.submission;
    model.submissions.set(id, { formId, updatedAt });
    model.expected.push(`form.submitted ${id}`);
  }
  toString = () => `submit(form ${this.form})`;
}

/** An event only when the answer's `updatedAt` moved: a connect already made, or a disconnect of nothing, sends none. */
class Relate implements EventsCommand {
  constructor(readonly verb: 'connect' | 'disconnect', readonly submission: number, readonly related: number) {}
  check = (model: Readonly<EventsModel>) => model.submissions.size > 0;
  async run(model: EventsModel, { api, editor }: Service) {
    const [id, known] = at([...model.submissions], this.submission);
    const body = { relatedSubmissionId: at(ids(model.submissions), this.related) };
    const res = await api.call('POST', `/forms/submission/${id}/relations/link/${this.verb}`, { headers: editor, body });
    // 400: the form has no `link` field; 404: the related submission is not of the form it targets.
    expectStatus(res, [200, 400, 404], this.verb);
    if (res.status !== 200) return;
    if (res.body.data.submission.updatedAt !== known.updatedAt) model.expected.push(`submission.relation.${this.verb}ed ${id}`);
    known.updatedAt = res.body.data.submission.updatedAt;
  }
  toString = () => `${this.verb}(${this.submission} ↔ ${this.related})`;
}

class Erase implements EventsCommand {
  constructor(readonly submission: number) {}
  check = (model: Readonly<EventsModel>) => model.submissions.size > 0;
  async run(model: EventsModel, { api, editor }: Service) {
    const id = at(ids(model.submissions), this.submission);
    expectStatus(await api.call('DELETE', `/forms/submission/${id}`, { headers: editor }), [200], 'erase');
    model.submissions.delete(id);
    model.expected.push(`submission.deleted ${id}`);
  }
  toString = () => `erase(${this.submission})`;
}

class CreateArticle implements EventsCommand {
  check = () => true;
  async run(model: EventsModel, { api, editor }: Service) {
    const res = await api.call('POST', '/articles/create', { headers: editor, body: { title: 'News' } });
    expectStatus(res, [201], 'article create');
    model.articles.set(res.body.data.article.id, { likes: 0, dislikes: 0 });
    model.expected.push(`article.created ${res.body.data.article.id}`);
  }
  toString = () => 'createArticle';
}

class UpdateArticle implements EventsCommand {
  constructor(readonly article: number, readonly empty: boolean) {}
  check = (model: Readonly<EventsModel>) => model.articles.size > 0;
  async run(model: EventsModel, { api, editor }: Service) {
    const id = at(ids(model.articles), this.article);
    expectStatus(await api.call('PATCH', `/articles/update/${id}`, { headers: editor, body: this.empty ? {} : { title: 'Update' } }), [200], 'article update');
    if (!this.empty) model.expected.push(`article.updated ${id}`);
  }
  toString = () => `updateArticle(${this.article}${this.empty ? ', {}' : ''})`;
}

/** One `article.deleted`, none for the comments it takes along. */
class DeleteArticle implements EventsCommand {
  constructor(readonly article: number) {}
  check = (model: Readonly<EventsModel>) => model.articles.size > 0;
  async run(model: EventsModel, { api, editor }: Service) {
    const id = at(ids(model.articles), this.article);
    expectStatus(await api.call('DELETE', `/articles/delete/${id}`, { headers: editor }), [200], 'article delete');
    model.articles.delete(id);
    for (const [comment, { articleId }] of model.comments) if (articleId === id) model.comments.delete(comment);
    model.expected.push(`article.deleted ${id}`);
  }
  toString = () => `deleteArticle(${this.article})`;
}

/** `article.reaction.changed` only when the totals moved. */
class React implements EventsCommand {
  constructor(readonly article: number, readonly user: number, readonly reaction: 'like' | 'dislike' | null) {}
  check = (model: Readonly<EventsModel>) => model.articles.size > 0;
  async run(model: EventsModel, { api }: Service) {
    const [id, totals] = at([...model.articles], this.article);
    const headers = { 'x-user-id': `events-user-${this.user}` };
    const path = `/articles/${id}/reaction`;
    const res = this.reaction === null ? await api.call('DELETE', path, { headers }) : await api.call('PUT', path, { headers, body: { type: this.reaction } });
    expectStatus(res, [200], 'reaction');
    const { likes, dislikes } = res.body.data;
    if (likes !== totals.likes || dislikes !== totals.dislikes) model.expected.push(`article.reaction.changed ${id}`);
    Object.assign(totals, { likes, dislikes });
  }
  toString = () => `react(article ${this.article}, user ${this.user}, ${this.reaction})`;
}

class Comment implements EventsCommand {
  constructor(readonly article: number) {}
  check = (model: Readonly<EventsModel>) => model.articles.size > 0;
  async run(model: EventsModel, { api }: Service) {
    const articleId = at(ids(model.articles), this.article);
    const res = await api.call('POST', `/articles/${articleId}/comments`, { headers: { 'x-user-id': 'events-reader' }, body: { content: 'Noted' } });
    expectStatus(res, [201], 'comment');
    model.comments.set(res.body.data.comment.id, { articleId, approved: false });
    model.expected.push(`comment.created ${res.body.data.comment.id}`);
  }
  toString = () => `comment(article ${this.article})`;
}

/** `comment.approved` the first time only. */
class Approve implements EventsCommand {
  constructor(readonly comment: number) {}
  check = (model: Readonly<EventsModel>) => model.comments.size > 0;
  async run(model: EventsModel, { api, editor }: Service) {
    const [id, comment] = at([...model.comments], this.comment);
    expectStatus(await api.call('PUT', `/articles/comments/${id}/approve`, { headers: editor }), [200], 'approve');
    if (!comment.approved) model.expected.push(`comment.approved ${id}`);
    comment.approved = true;
  }
  toString = () => `approve(${this.comment})`;
}

class DeleteComment implements EventsCommand {
  constructor(readonly comment: number) {}
  check = (model: Readonly<EventsModel>) => model.comments.size > 0;
  async run(model: EventsModel, { api, editor }: Service) {
    const id = at(ids(model.comments), this.comment);
    expectStatus(await api.call('DELETE', `/articles/comments/${id}`, { headers: editor }), [200], 'comment delete');
    model.comments.delete(id);
    model.expected.push(`comment.deleted ${id}`);
  }
  toString = () => `deleteComment(${this.comment})`;
}

/**
 * What the subscriber received for the run: exactly the expected events, signed. Deliveries are
 * at least once: a retry after a timeout on a loaded machine repeats an event under the same
 * `webhook-id` (a receiver de-duplicates on it), so events are counted by id.
 */
class CheckDeliveries implements EventsCommand {
  check = () => true;
  async run(model: EventsModel, { receiver }: Service) {
    const deliveries = () => new Map(receiver.received.slice(model.from).map((delivery) => [delivery.id, delivery]));
    const deadline = Date.now() + 10_000;
    while (deliveries().size < model.expected.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 3 * Number(FAST_WEBHOOKS.NOTIFY_POLL_MS))); // room for an event too many
    const received = [...deliveries().values()];
    const keys = received.map(({ body }) => `${body.type} ${body.data.id ?? body.data.articleId}`);
    const [missing, extra] = [difference(model.expected, keys), difference(keys, model.expected)];
    expect({ missing, extra }, 'events received, against the changes answered').to.deep.equal({ missing: [], extra: [] });
    expect(receiver.received.slice(model.from).filter(({ verified }) => verified !== true), 'unsigned deliveries').to.deep.equal([]);
  }
  toString = () => 'checkDeliveries';
}

/** What `list` holds more often than `other` (a multiset difference). */
function difference(list: readonly string[], other: readonly string[]): string[] {
  const left = [...other];
  return list.filter((item) => {
    const index = left.indexOf(item);
    if (index === -1) return true;
    left.splice(index, 1);
    return false;
  });
}

const reactions = fc.constantFrom<'like' | 'dislike' | null>('like', 'dislike', null);

/** Each generator with its weight: records come often enough for updates, relations and deletes to have something to act on. */
const eventsCommands = weighted<EventsCommand>([
  [3, fc.option(fc.nat()).map((related) => new CreateForm(related))],
  [1, fc.tuple(fc.nat(), fc.boolean()).map(([form, empty]) => new UpdateForm(form, empty))],
  [1, fc.nat().map((form) => new DeleteForm(form))],
  [3, fc.nat().map((form) => new Submit(form))],
  [3, fc.tuple(fc.constantFrom('connect' as const, 'disconnect' as const), fc.nat(), fc.nat()).map((drawn) => new Relate(...drawn))],
  [1, fc.nat().map((submission) => new Erase(submission))],
  [2, fc.constant(new CreateArticle())],
  [1, fc.tuple(fc.nat(), fc.boolean()).map(([article, empty]) => new UpdateArticle(article, empty))],
  [1, fc.nat().map((article) => new DeleteArticle(article))],
  [3, fc.tuple(fc.nat(), fc.nat({ max: 2 }), reactions).map((drawn) => new React(...drawn))],
  [2, fc.nat().map((article) => new Comment(article))],
  [2, fc.nat().map((comment) => new Approve(comment))],
  [1, fc.nat().map((comment) => new DeleteComment(comment))],
]);

let receiver: StandardWebhookReceiver;
let slugs = 0;

describeSequences<EventsModel, Service>({
  operations: 'event-sending',
  runs: 40, // each run waits for its deliveries
  env: FAST_WEBHOOKS,
  async prepare({ api }) {
    receiver = await StandardWebhookReceiver.start();
    const admin = await engagementClient(api).bearer('admin');
    const created = await api.call('POST', '/webhooks/create', { headers: admin, body: { url: receiver.url(), events: ['*'] } });
    expectStatus(created, [201], 'webhook create');
    receiver.secret = created.body.data.webhook.secret;
  },
  dispose: () => receiver.stop(),
  holds: 'deliver exactly one signed event per change the answers reported, and none for a request that changed nothing',
  commands: eventsCommands,
  start: (service) => ({
    model: { forms: [], submissions: new Map(), articles: new Map(), comments: new Map(), expected: [], from: receiver.received.length },
    real: { ...service, receiver, slug: () => `events-${(slugs += 1)}` },
  }),
  check: new CheckDeliveries(),
});
