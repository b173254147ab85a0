// Embeds @cms/core in a plain Node program: no HTTP, no container. Builds the use cases on the
// in-memory store with createCore, creates a form, submits it, reacts to an article as a guest,
// sends the submission's notification, shows that the core refuses invalid forms and that the
// guest rules (CAPTCHA token, guest id, rate limit) hold without any HTTP layer, and delivers a
// signed webhook to a receiver on loopback. Exits non-zero if any of it does not behave as
// docs/embedding.md says.
// Run from the repository root after `npm run build`: node examples/embed-core/main.mjs
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { createCore, isDomainError, ManualClock, StaticCaptchaVerifier, TrackedWork } from '@cms/core';

// Your CAPTCHA verifier: here one that accepts the token "ok" (use adapter-captcha's in production).
const captcha = new StaticCaptchaVerifier(new Map([['ok', undefined]]));
const clock = new ManualClock('2026-05-01T10:00:00.000Z');
// Your mail sender: here one that keeps the messages (use adapter-notify's SMTP sender in production).
const mails = [];
const email = { send: async (message) => void mails.push(message) };
// Work a use case starts and does not await (a submit queues its notification jobs after it answers): tracked, to wait for it.
const backgroundWork = new TrackedWork();
// Your webhook sender and URL guard: here a plain fetch, and a guard that allows this example's loopback
// receiver only (use adapter-notify's HttpWebhookSender and AddressWebhookUrlGuard in production).
const webhooks = {
  sender: { send: async ({ url, headers, body }) => ({ statusCode: (await fetch(url, { method: 'POST', headers, body, redirect: 'manual' })).status }) },
  urlGuard: { isAllowed: async (url) => new URL(url).hostname === '127.0.0.1' },
  intervalMs: 50,
};
const core = createCore({ captcha, clock, guestPolicy: { limit: 3, windowSeconds: 60 }, notifications: { email, intervalMs: 50 }, webhooks, backgroundWork });

// Callers: who is asking, as your service resolved it (core trusts what you put here).
const tenantId = 'acme';
// Typed as `Caller`, so that a type checker keeps `role` one of the four, not any string.
/** @type {import('@cms/core').Caller} */
const editor = { tenantId, user: { id: 'ed-1', role: 'editor', verified: true }, guest: undefined };
/** @type {(id?: string, captchaToken?: string) => import('@cms/core').Caller} */
const guest = (id, captchaToken) => ({ tenantId, user: undefined, guest: { id, captchaToken } });
/** @type {import('@cms/core').Caller} */
const admin = { tenantId, user: { id: 'admin-1', role: 'admin', verified: true }, guest: undefined };

/** The domain error code a call fails with; fails when it succeeds. */
async function refusal(promise) {
  try {
    await promise;
  } catch (error) {
    if (isDomainError(error)) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
}

// 1. A form, and a submission to it.
const form = await core.forms.create.execute(editor, {
  title: { en: 'Contact' },
  slug: 'contact',
  sections: [{ fields: [{ name: 'name', type: 'text', label: { en: 'Name' }, required: true }] }],
  notifications: { enabled: true, email: { admin: { enabled: true, recipients: ['ops@acme.example'] } } },
});
const submission = await core.forms.submit.execute(guest('visitor-01'), { formId: form.id, submission: { values: { name: 'Ada' } }, mode: 'public' });
assert.deepEqual(submission.values, { name: 'Ada' });
assert.equal(await refusal(core.forms.submit.execute(guest('visitor-01'), { formId: form.id, submission: { values: {} }, mode: 'public' })), 'VALIDATION_FAILED');
console.log(`form ${form.slug} created, submission ${submission.id} stored`);

// 1a. The submission queued its notification job once answered; the dispatcher sends it; stop() waits for its batch.
await backgroundWork.settled();
assert.deepEqual((await core.stores.outbox.listByTenant(tenantId)).map((job) => [job.channel, job.status]), [['email', 'pending']]);
core.notifications.dispatcher.start();
for (let waited = 0; mails.length === 0 && waited < 2000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
await core.notifications.dispatcher.stop();
assert.deepEqual(mails.map((mail) => mail.to), [['ops@acme.example']]);
console.log(`notification mailed to ${mails[0].to.join(', ')}: "${mails[0].subject}"`);

// 1b. An invalid form is refused by the core itself, with no HTTP schema in front of it.
const nameField = { name: 'name', type: 'text', label: { en: 'Name' } };
const invalidForms = [
  // Two fields with the same name.
  [{ title: { en: 'Twice' }, slug: 'twice', sections: [{ fields: [nameField, nameField] }] }, 'VALIDATION_FAILED'],
  // The slug of an existing form.
  [{ title: { en: 'Again' }, slug: 'contact', sections: [{ fields: [nameField] }] }, 'FORM_SLUG_TAKEN'],
  // Rules the HTTP layer's JSON Schemas alone used to enforce: the core checks them itself.
  [{ title: { en: 'Bad slug' }, slug: 'NOT A SLUG !!', sections: [{ fields: [nameField] }] }, 'VALIDATION_FAILED'],
  [{ title: { en: 'Bogus' }, slug: 'bogus', visibility: 'bogus', sections: [{ fields: [nameField] }] }, 'VALIDATION_FAILED'],
  [{ title: { en: 'Score' }, slug: 'score', captcha: { enabled: true, minScore: 42 }, sections: [{ fields: [nameField] }] }, 'VALIDATION_FAILED'],
  [{ title: { en: 'Empty' }, slug: 'empty', sections: [] }, 'VALIDATION_FAILED'],
  [{ title: { en: 'No sections' }, slug: 'no-sections' }, 'VALIDATION_FAILED'],
];
for (const [input, code] of invalidForms) assert.equal(await refusal(core.forms.create.execute(editor, input)), code);
assert.equal((await core.forms.list.execute(editor, {})).forms.length, 1);
console.log(`${invalidForms.length} invalid forms refused by the core, nothing stored`);

// 2. An article, and a guest reacting to it.
const article = await core.articles.create.execute(editor, { title: 'Hello' });
const totals = await core.articles.react.execute(guest('guest-0001', 'ok'), { articleId: article.id, reaction: { type: 'like' } });
assert.deepEqual(totals, { articleId: article.id, likes: 1, dislikes: 0 });
console.log(`guest-0001 likes "${article.title}": ${totals.likes} like(s)`);

// 3. The guest rules hold with no HTTP in between.
assert.equal(await refusal(core.articles.react.execute(guest('guest-0002', undefined), { articleId: article.id, reaction: { type: 'like' } })), 'GUEST_CAPTCHA_REQUIRED');
assert.equal(await refusal(core.articles.react.execute(guest(undefined, 'ok'), { articleId: article.id, reaction: { type: 'like' } })), 'GUEST_ID_MISSING');
assert.equal(await refusal(core.articles.react.execute(guest('guest-0002', 'forged'), { articleId: article.id, reaction: { type: 'like' } })), 'GUEST_CAPTCHA_INVALID');
await core.comments.create.execute(guest('guest-0001', 'ok'), { articleId: article.id, comment: { content: 'Nice!' } });
await core.articles.react.execute(guest('guest-0001', 'ok'), { articleId: article.id, reaction: { type: 'dislike' } });
assert.equal(await refusal(core.articles.react.execute(guest('guest-0001', 'ok'), { articleId: article.id, reaction: null })), 'GUEST_RATE_LIMITED');
assert.equal(await refusal(core.articles.createCategory.execute(guest('guest-0001', 'ok'), { name: 'News' })), 'UNAUTHORIZED');
console.log('guest rules hold: no token, no guest id, a forged token and the 4th write in a window are refused');

// 4. The window turns: the guest may write again.
clock.set('2026-05-01T10:01:00.000Z');
assert.deepEqual(await core.articles.react.execute(guest('guest-0001', 'ok'), { articleId: article.id, reaction: null }), { articleId: article.id, likes: 0, dislikes: 0 });
console.log('a minute later guest-0001 may write again');

// 5. A webhook: a receiver on loopback subscribes to new articles and gets each one, signed (Standard Webhooks).
const received = [];
const receiver = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk)).on('end', () => {
    received.push({ headers: request.headers, body });
    response.writeHead(204).end();
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const { secret } = await core.webhooks.create.execute(admin, { url: `http://127.0.0.1:${receiver.address().port}/hooks`, events: ['article.created'] });
const announced = await core.articles.create.execute(editor, { title: 'Announced' });
core.webhooks.dispatcher.start();
for (let waited = 0; received.length === 0 && waited < 2000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
await core.webhooks.dispatcher.stop();
receiver.close();
const [{ headers, body }] = received;
const signature = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`).digest('base64');
assert.equal(headers['webhook-signature'], `v1,${signature}`);
assert.deepEqual([JSON.parse(body).type, JSON.parse(body).data.id], ['article.created', announced.id]);
console.log(`webhook delivered: article.created ${announced.id}, signature verified`);
