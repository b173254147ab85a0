/**
 * The embedding guide's MongoDB core: `createCore({ stores: mongoCoreStores(createMongoRepositories(db)) })`
 * over the collection double. The repositories' own names differ from `CoreStores`' (an outbox,
 * a guest limiter, dashboards), and a core given them as they were answered submits and lost
 * their notification jobs.
 */
import { expect } from 'chai';
import { StaticCaptchaVerifier, TrackedWork, createCore, type Caller } from '@cms/core';
import { createMongoRepositories, ensureIndexes, mongoCoreStores } from './index.js';
import { MingoDatabaseDouble } from './testing/index.js';

describe('mongoCoreStores: a core embedded over MongoDB', () => {
  it('builds a core whose submits store their notification jobs, whose guests are counted and whose dashboards are read', async () => {
    const db = new MingoDatabaseDouble();
    await ensureIndexes(db);
    const backgroundWork = new TrackedWork();
    const core = createCore({ stores: mongoCoreStores(createMongoRepositories(db)), captcha: new StaticCaptchaVerifier(new Map([['ok', undefined]])), backgroundWork });
    await core.tenancy.manage.createTenant('acme');
    const editor: Caller = { tenantId: 'acme', user: { id: 'ed-1', role: 'editor', verified: true }, guest: undefined };
    const form = await core.forms.create.execute(editor, {
      title: { en: 'Contact' },
      slug: 'contact',
      sections: [{ fields: [{ name: 'name', type: 'text', label: { en: 'Name' } }] }],
      notifications: { enabled: true, email: { admin: { enabled: true, recipients: ['boss@acme.test'] } } },
      captcha: { provider: 'none' },
    });
    await core.forms.submit.execute({ tenantId: 'acme', user: undefined, guest: undefined }, { formId: form.id, mode: 'public', submission: { values: { name: 'Ada' } } });
    await backgroundWork.settled();
    expect((await core.stores.outbox.listByTenant('acme')).map((job) => job.channel)).to.deep.equal(['email']);
    expect((await core.dashboard.get.execute({ ...editor, user: { id: 'u1', role: 'member', verified: false } })).slots).to.be.an('array');
    const article = await core.articles.create.execute(editor, { title: 'Hello' });
    const guest: Caller = { tenantId: 'acme', user: undefined, guest: { id: 'guest-0001', captchaToken: 'ok' } };
    await core.articles.react.execute(guest, { articleId: article.id, reaction: { type: 'like' } });
    expect((await core.articles.get.execute(editor, { id: article.id })).likes).to.equal(1);
  });
});
