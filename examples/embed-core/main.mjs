// Embeds @cms/core in a plain Node program: no HTTP, no container. Builds the use cases on the
// in-memory store with createCore, creates a form, submits it, reacts to an article as a guest,
// and shows that the guest rules (CAPTCHA token, guest id, rate limit) hold without any HTTP
// layer. Exits non-zero if any of it does not behave as docs/embedding.md says.
// Run from the repository root after `npm run build`: node examples/embed-core/main.mjs
import assert from 'node:assert/strict';
import { createCore, isDomainError, ManualClock, StaticCaptchaVerifier } from '@cms/core';

// Your CAPTCHA verifier: here one that accepts the token "ok" (use adapter-captcha's in production).
const captcha = new StaticCaptchaVerifier(new Map([['ok', undefined]]));
const clock = new ManualClock('2026-05-01T10:00:00.000Z');
const core = createCore({ captcha, clock, guestPolicy: { limit: 3, windowSeconds: 60 } });

// Callers: who is asking, as your service resolved it (core trusts what you put here).
const tenantId = 'acme';
const editor = { tenantId, user: { id: 'ed-1', role: 'editor', verified: true }, guest: undefined };
const guest = (id, captchaToken) => ({ tenantId, user: undefined, guest: { id, captchaToken } });

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
});
const submission = await core.forms.submit.execute(guest('visitor-01'), { formId: form.id, submission: { values: { name: 'Ada' } }, mode: 'public' });
assert.deepEqual(submission.values, { name: 'Ada' });
assert.equal(await refusal(core.forms.submit.execute(guest('visitor-01'), { formId: form.id, submission: { values: {} }, mode: 'public' })), 'VALIDATION_FAILED');
console.log(`form ${form.slug} created, submission ${submission.id} stored`);

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
