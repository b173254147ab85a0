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

  describe('an update of each kind', () => {
    type Record = { readonly id: string; readonly updatedAt: Date | string };
    const kinds: Array<[string, (core: ReturnType<typeof createCore>) => Promise<Record>, (core: ReturnType<typeof createCore>, id: string, n: number) => Promise<Record>, (core: ReturnType<typeof createCore>, id: string, ifMatch: string) => Promise<unknown>]> = [
      ['author', (core) => core.authors.create.execute(editor, { name: 'Ada' }), (core, id, n) => core.authors.update.execute(editor, { id, changes: { name: `Ada ${n}` } }), (core, id, ifMatch) => core.authors.remove.execute(editor, { id, ifMatch })],
      ['category', (core) => core.articles.createCategory.execute(editor, { name: 'News' }), (core, id, n) => core.articles.updateCategory.execute(editor, { id, changes: { name: `News ${n}` } }), (core, id, ifMatch) => core.articles.removeCategory.execute(editor, { id, ifMatch })],
      ['article', (core) => core.articles.create.execute(editor, { title: 'Talk' }), (core, id, n) => core.articles.update.execute(editor, { id, changes: { title: `Talk ${n}` } }), (core, id, ifMatch) => core.articles.remove.execute(editor, { id, ifMatch })],
      ['form', (core) => core.forms.create.execute(editor, { title: { en: 'Join' }, slug: 'join', sections: [{ fields: [{ name: 'a', type: 'text', label: { en: 'A' } }] }] }), (core, id, n) => core.forms.update.execute(editor, { id, changes: { title: { en: `Join ${n}` } } }), (core, id, ifMatch) => core.forms.remove.execute(editor, { id, ifMatch })],
    ];
    for (const [kind, create, update, remove] of kinds) {
      it(`moves a ${kind}’s updatedAt past the version it replaces, within one millisecond and after a step back, so a delete holding an earlier tag is refused`, async () => {
        const clock = new ManualClock('2026-03-04T05:06:07.890Z');
        const core = createCore({ captcha: new StaticCaptchaVerifier(), clock });
        const created = await create(core);
        const first = await update(core, created.id, 1); // the clock has not moved
        expect(new Date(first.updatedAt).getTime()).to.be.above(new Date(created.updatedAt).getTime());
        clock.advance(-3_600_000); // an NTP step back
        const second = await update(core, created.id, 2);
        expect(new Date(second.updatedAt).getTime()).to.be.above(new Date(first.updatedAt).getTime());
        const refusal = await domainErrorOf(remove(core, created.id, entityTag(first)));
        expect(refusal.code).to.equal(ErrorCodes.PRECONDITION_FAILED);
        await remove(core, created.id, entityTag(second)); // the tag of the version stored is taken
      });
    }
  });
});
