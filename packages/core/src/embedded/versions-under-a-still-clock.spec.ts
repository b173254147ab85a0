/**
 * `updatedAt` is the version an If-Match delete compares (decisions 0760, 0765), so every change
 * moves it forward, also when the clock stands still or steps back (a time audit, 2026-12-03: a
 * connect and an approval wrote the clock's time as it was, so within one millisecond, or after
 * an NTP step back, a delete holding the tag from before the change still deleted).
 */
import { expect } from 'chai';
import { StaticCaptchaVerifier } from '../captcha/captcha.ports.js';
import { ManualClock } from '../shared/clock.js';
import { entityTag } from '../shared/entity-tag.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { userCaller } from '../testing/callers.js';
import { domainErrorOf } from '../testing/expect-domain-error.js';
import { formRecord, submissionRecord } from '../testing/form-fixtures.js';
import { createCore } from './create-core.js';

const editor = userCaller('acme', 'ed-1', 'editor');

describe('Versions under a clock that stands still or steps back', () => {
  it('a connect moves the submission’s updatedAt past the version it replaces, also within one millisecond and after a step back', async () => {
    const clock = new ManualClock('2026-03-04T05:06:07.890Z');
    const core = createCore({ captcha: new StaticCaptchaVerifier(), clock });
    const target = formRecord('acme', 'companies');
    const links = { name: 'links', type: 'relation' as const, label: { en: 'Links' }, required: false, placeholder: {}, relation: { formId: target.id, multiple: true } };
    const source = formRecord('acme', 'people', { sections: [{ title: {}, description: {}, fields: [links] }] });
    for (const form of [target, source]) await core.stores.forms.insert(form);
    const [one, two] = [submissionRecord('acme', target.id), submissionRecord('acme', target.id)];
    const holder = submissionRecord('acme', source.id, { createdAt: clock.now(), updatedAt: clock.now() });
    for (const submission of [one, two, holder]) await core.stores.submissions.insert(submission);
    const before = await core.forms.getSubmission.execute(editor, { id: holder.id });

    const connected = await core.forms.connectRelation.execute(editor, { submissionId: holder.id, fieldName: 'links', relatedSubmissionId: one.id });
    expect(new Date(connected.updatedAt).getTime()).to.be.above(holder.updatedAt.getTime());
    clock.advance(-3_600_000); // an NTP step back
    const again = await core.forms.connectRelation.execute(editor, { submissionId: holder.id, fieldName: 'links', relatedSubmissionId: two.id });
    expect(new Date(again.updatedAt).getTime()).to.be.above(new Date(connected.updatedAt).getTime());

    const refusal = await domainErrorOf(core.forms.removeSubmission.execute(editor, { id: holder.id, ifMatch: entityTag(before) }));
    expect(refusal.code).to.equal(ErrorCodes.PRECONDITION_FAILED);
    expect(await core.stores.submissions.findById('acme', holder.id)).to.not.equal(null);
  });

  it('an approval moves the comment’s updatedAt past the pending comment’s, also after a step back', async () => {
    const clock = new ManualClock('2026-03-04T05:06:07.890Z');
    const core = createCore({ captcha: new StaticCaptchaVerifier(), clock });
    const article = await core.articles.create.execute(editor, { title: 'Talk' });
    const pending = await core.comments.create.execute(userCaller('acme', 'reader-1'), { articleId: article.id, comment: { content: 'First!' } });
    clock.advance(-3_600_000); // an NTP step back: the approval's time is before the comment's
    const approved = await core.comments.approve.execute(editor, { id: pending.id });
    expect(new Date(approved.updatedAt).getTime()).to.be.above(new Date(pending.updatedAt).getTime());
    const refusal = await domainErrorOf(core.comments.remove.execute(editor, { id: pending.id, ifMatch: entityTag(pending) }));
    expect(refusal.code).to.equal(ErrorCodes.PRECONDITION_FAILED);
  });
});
