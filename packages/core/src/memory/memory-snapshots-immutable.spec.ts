/**
 * The embedded store's invariant, for every store `memoryStores()` builds: whatever a reader
 * gets can never change the store. Snapshot tables hand out records frozen at every level
 * (checked by walking them, not by trusting the snapshot mark); the others hand out copies or
 * primitives, so a reader's change shows in no later read. Each store runs all of its writes
 * first, so a write that forgets to freeze is caught. A store added to `memoryStores()`
 * without a scenario here fails the suite.
 */
import { expect } from 'chai';
import { memoryStores, type MemoryStores } from '../embedded/core-stores.js';
import { defaultDashboardConfig } from '../dashboard/dashboard-config.js';
import { defaultRepurposeTemplate } from '../repurpose/repurpose-template.js';
import { articleRecord, authorRecord, categoryRecord, commentRecord } from '../testing/engagement-records.js';
import { formRecord, submissionRecord } from '../testing/form-fixtures.js';
import { sampleNotificationJob } from '../testing/notification-records.js';

const AT = new Date('2026-01-02T03:04:05.678Z');
const LATER = new Date('2026-01-03T03:04:05.678Z');
/** The first page of a list, newest first. */
const PAGE = { after: null, limit: 10 } as const;

/** Paths under `value` that a reader could change: unfrozen objects, arrays or Dates. */
function changeableParts(value: unknown, path = 'record', found: string[] = []): string[] {
  if (typeof value !== 'object' || value === null) return found;
  if (!Object.isFrozen(value)) found.push(path);
  if (!(value instanceof Date)) for (const [key, member] of Object.entries(value)) changeableParts(member, `${path}.${key}`, found);
  return found;
}

/** Runs each of a store's writes, and answers what the writes handed out and what reads after each handed out. */
type Scenario<S> = (store: S) => Promise<unknown[]>;
/** Reads only (no writes), to read again after a reader has changed what it got. */
type Reread<S> = (store: S) => Promise<unknown[]>;

const SCENARIOS: { readonly [K in keyof MemoryStores]: Scenario<MemoryStores[K]> } = {
  tenants: async (tenants) => {
    const read = async () => [await tenants.findById('acme'), ...(await tenants.list())];
    await tenants.insert({ id: 'acme', name: 'Acme', aiTokenLimitMonthly: null, adminEmails: ['a@example.com'], createdAt: new Date(AT) });
    const inserted = await read();
    await tenants.setAiTokenLimit('acme', 500);
    const limited = await read();
    await tenants.setAdminEmails('acme', ['b@example.com']);
    return [...inserted, ...limited, ...(await read())];
  },
  apiKeys: async (keys) => {
    await keys.insert({ id: 'k1', tenantId: 'acme', name: 'k', hash: 'h1', createdAt: new Date(AT), revokedAt: null });
    const inserted = await keys.findByHash('h1');
    await keys.revoke('k1', new Date(AT));
    return [inserted, await keys.findByHash('h1'), ...(await keys.listByTenant('acme'))];
  },
  forms: async (forms) => {
    const form = formRecord('acme', 'contact');
    await forms.insert(form);
    const inserted = await forms.findById('acme', form.id);
    await forms.update({ ...form, slug: 'contact-us', title: { en: 'Contact us' }, updatedAt: new Date(LATER) }, form.updatedAt);
    const updated = [await forms.findById('acme', form.id), await forms.findBySlug('acme', 'contact-us')];
    return [inserted, ...updated, ...(await forms.list('acme', {}, PAGE))];
  },
  submissions: async (submissions) => {
    const submission = submissionRecord('acme', 'f1', { values: { name: 'Ada', tags: ['a'] } });
    await submissions.insert(submission);
    const inserted = await submissions.findById('acme', submission.id);
    const common = { tenantId: 'acme', submissionId: submission.id, now: new Date(AT), cap: 5 };
    const one = await submissions.connectRelation({ ...common, fieldName: 'single', relatedId: 'r1', multiple: false });
    const many = await submissions.connectRelation({ ...common, fieldName: 'many', relatedId: 'r2', multiple: true });
    const stored = (result: typeof one) => (result.status === 'connected' || result.status === 'unchanged' ? result.submission : null);
    const connected = await submissions.findById('acme', submission.id);
    const disconnected = (await submissions.disconnectRelation({ tenantId: 'acme', submissionId: submission.id, fieldName: 'single', relatedId: 'r1', now: new Date(LATER) }))?.submission;
    await submissions.removeRelationsTo('acme', { formId: 'f1', fieldName: 'many' }, ['r2']);
    const listed = await submissions.listByForm('acme', 'f1', PAGE);
    return [inserted, stored(one), stored(many), connected, disconnected, ...listed, await submissions.findById('acme', submission.id)];
  },
  outbox: async (outbox) => {
    await outbox.enqueue([sampleNotificationJob()], new Date(AT));
    return [...(await outbox.claimDue(new Date(AT), 1000, 10)), ...(await outbox.listByTenant('acme'))];
  },
  authors: async (authors) => {
    const author = authorRecord('acme');
    await authors.insert(author);
    const inserted = await authors.findById('acme', author.id);
    await authors.update({ ...author, name: 'Grace', updatedAt: new Date(LATER) }, author.updatedAt);
    return [inserted, await authors.findById('acme', author.id), ...(await authors.list('acme', PAGE))];
  },
  categories: async (categories) => {
    const category = categoryRecord('acme');
    await categories.insert(category);
    const inserted = await categories.findById('acme', category.id);
    await categories.update({ ...category, name: 'Renamed', updatedAt: new Date(LATER) }, category.updatedAt);
    const listed = await categories.list('acme', {}, PAGE);
    return [inserted, await categories.findById('acme', category.id), ...(await categories.findByIds('acme', [category.id])), ...listed];
  },
  articles: async (articles) => {
    const article = articleRecord('acme', { authorId: 'au1', categoryId: 'c1' });
    const read = () => articles.findById('acme', article.id);
    await articles.insert(article);
    const inserted = await read();
    await articles.incrementTotals('acme', article.id, { likes: 1, dislikes: 0 });
    const counted = await read();
    await articles.update({ ...counted!, title: 'Retitled', updatedAt: new Date(LATER) }, counted!.updatedAt);
    const updated = await read();
    await articles.clearCategory('acme', 'c1');
    const uncategorised = await read();
    await articles.clearAuthor('acme', 'au1');
    // (`listTotals` answers fresh { id, likes, dislikes } of numbers: copies, not records.)
    return [inserted, counted, updated, uncategorised, await read(), ...(await articles.list('acme', {}, PAGE))];
  },
  comments: async (comments) => {
    const comment = commentRecord('acme', 'a1');
    const read = () => comments.findById('acme', comment.id);
    await comments.insert(comment);
    const inserted = await read();
    await comments.incrementTotals('acme', comment.id, { likes: 0, dislikes: 1 });
    const counted = await read();
    const approved = (await comments.approve('acme', comment.id, 'ed-1', new Date(AT)))?.comment;
    return [inserted, counted, approved, await read(), ...(await comments.listByArticle('acme', 'a1', undefined, PAGE))];
  },
  reactions: async (reactions) => {
    const key = { tenantId: 'acme', targetKind: 'article' as const, targetId: 'a1', actor: 'user:u1' };
    await reactions.setReaction(key, 'like');
    const tally = await reactions.tally('acme', 'article', ['a1']);
    return [await reactions.findReaction(key), ...tally.values()];
  },
  guestLimiter: async (limiter) => [await limiter.hit({ tenantId: 'acme', guestId: 'g1', startsAt: new Date(0), endsAt: new Date(60_000) })],
  dashboards: async (dashboards) => {
    const stored = await dashboards.upsert({ tenantId: 'acme', userId: 'u1', config: defaultDashboardConfig(), updatedBy: 'u1', updatedAt: new Date(AT) });
    return [stored, await dashboards.find('acme', 'u1')];
  },
  repurposeTemplates: async (templates) => {
    const created = await templates.findOrCreate(defaultRepurposeTemplate('acme', new Date(AT)));
    const changed = await templates.applyChanges(
      'acme',
      [
        { path: ['platforms', 'twitter', 'tone'], value: 'casual' },
        { path: ['defaults', 'length'], value: 'short' },
      ],
      { updatedBy: 'u1', updatedAt: new Date(AT) },
    );
    return [created, changed];
  },
  webhooks: async (webhooks) => {
    const webhook = { id: 'w1', tenantId: 'acme', url: 'https://hooks.example/1', events: ['*'], description: null, enabled: true, secret: 'whsec_A', createdAt: new Date(AT), updatedAt: new Date(AT) };
    await webhooks.insert(webhook);
    const inserted = await webhooks.findById('acme', 'w1');
    const updated = await webhooks.update('acme', 'w1', { events: ['form.submitted'], description: 'crm' }, new Date(AT));
    return [inserted, updated, ...(await webhooks.list('acme', { limit: 5 })), ...(await webhooks.listSubscribed('acme', 'form.submitted'))];
  },
  webhookDeliveries: async (deliveries) => {
    const trace = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', flags: '01' };
    await deliveries.stage([{ tenantId: 'acme', webhookId: 'w1', eventId: 'e1', type: 'form.created', witness: { kind: 'form', id: 'f1' }, trace }], new Date(AT));
    await deliveries.confirm('acme', 'e1', '{"type":"form.created"}', new Date(AT));
    const claimed = await deliveries.claimDue(new Date(AT), 30_000, 5);
    await deliveries.complete(claimed[0]!.id, { status: 'delivered', statusCode: 204 }, new Date(AT));
    return [...claimed, ...(await deliveries.listByWebhook('acme', 'w1', 5))];
  },
};

/** Stores that hand out copies or primitives rather than shared snapshots, and how to read them again. */
const COPYING: { readonly [K in keyof MemoryStores]?: Reread<MemoryStores[K]> } = {
  outbox: async (outbox) => outbox.listByTenant('acme'),
  reactions: async (reactions) => [...(await reactions.tally('acme', 'article', ['a1'])).values()],
  guestLimiter: async () => [],
};

describe('Every memory store is immutable to its readers', () => {
  it('has a scenario for each store memoryStores() builds', () => {
    expect(Object.keys(SCENARIOS).sort()).to.deep.equal(Object.keys(memoryStores()).sort());
  });

  for (const name of Object.keys(SCENARIOS) as Array<keyof MemoryStores>) {
    const reread = COPYING[name] as Reread<unknown> | undefined;
    const what = reread ? 'a reader changing what it got changes no later read' : 'every record handed out, after every kind of write, is frozen at every level';
    it(`${name}: ${what}`, async () => {
      const store = memoryStores()[name];
      const handedOut = await (SCENARIOS[name] as Scenario<unknown>)(store);
      expect(handedOut.filter((value) => value !== null && value !== undefined).length, 'the scenario read something').to.be.greaterThan(0);
      if (!reread) {
        for (const value of handedOut) expect(changeableParts(value), name).to.deep.equal([]);
        return;
      }
      const before = JSON.stringify(await reread(store));
      for (const value of [...handedOut, ...(await reread(store))]) scribbleOver(value);
      expect(JSON.stringify(await reread(store))).to.equal(before);
    });
  }
});

/** Changes every changeable member of a value a reader got. */
function scribbleOver(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  if (value instanceof Date) {
    value.setTime(0);
    return;
  }
  if (value instanceof Map) {
    for (const member of value.values()) scribbleOver(member);
    value.clear();
    return;
  }
  for (const key of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[key];
    if (typeof member === 'object' && member !== null) scribbleOver(member);
    else (value as Record<string, unknown>)[key] = typeof member === 'number' ? -1 : 'scribbled';
  }
}
