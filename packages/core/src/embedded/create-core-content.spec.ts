/** `createCore` also builds the §6 content use cases (lists, updates, deletes), with the same rules as HTTP callers. */
import { expect } from 'chai';
import { StaticCaptchaVerifier } from '../captcha/captcha.ports.js';
import { entityTag } from '../shared/entity-tag.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { ManualClock } from '../shared/clock.js';
import { userCaller } from '../testing/callers.js';
import { domainErrorOf } from '../testing/expect-domain-error.js';
import { createCore } from './create-core.js';

/** The code a use case's promise was refused with, or `resolved`. */
const codeOf = (promise: Promise<unknown>) => promise.then(() => 'resolved', (e: { code?: string }) => e.code ?? String(e));

describe('createCore: the content use cases', () => {
  const editor = userCaller('acme', 'ed-1', 'editor');
  const build = (cursorSecret?: string) => {
    const clock = new ManualClock();
    return { clock, core: createCore({ captcha: new StaticCaptchaVerifier(new Map()), clock, cursorSecret }) };
  };

  it('pages a list with a signed cursor that only a core with the same secret reads', async () => {
    const { clock, core } = build('one secret');
    for (const title of ['first', 'second', 'third']) {
      await core.articles.create.execute(editor, { title });
      clock.advance(1000);
    }
    const first = await core.articles.list.execute(editor, { limit: '2' });
    expect(first.articles.map((article) => article.title)).to.deep.equal(['third', 'second']);
    const rest = await core.articles.list.execute(editor, { limit: '2', cursor: first.nextCursor });
    expect(rest.articles.map((article) => article.title)).to.deep.equal(['first']);
    expect(rest.nextCursor).to.equal(null);
    const other = build('another secret').core;
    expect(await codeOf(other.articles.list.execute(editor, { cursor: first.nextCursor }))).to.equal(ErrorCodes.INVALID_CURSOR);
  });

  it('updates under If-Match and refuses a stale tag; deletes need the role', async () => {
    const { clock, core } = build();
    const author = await core.authors.create.execute(editor, { name: 'Ada' });
    clock.advance(1000);
    const renamed = await core.authors.update.execute(editor, { id: author.id, changes: { name: 'Grace' }, ifMatch: entityTag(author) });
    expect(renamed.name).to.equal('Grace');
    expect(await codeOf(core.authors.update.execute(editor, { id: author.id, changes: { name: 'Ada' }, ifMatch: entityTag(author) }))).to.equal(ErrorCodes.PRECONDITION_FAILED);
    const category = await core.articles.createCategory.execute(editor, { name: 'News' });
    expect(await codeOf(core.articles.removeCategory.execute(userCaller('acme', 'm-1', 'member'), { id: category.id }))).to.equal(ErrorCodes.FORBIDDEN);
    await core.articles.removeCategory.execute(editor, { id: category.id });
    expect(await codeOf(core.articles.getCategory.execute(editor, { id: category.id }))).to.equal(ErrorCodes.CATEGORY_NOT_FOUND);
  });

  it('refuses an update naming a property it cannot change, at its name, and takes a member given as undefined as left out', async () => {
    const { core } = build();
    const author = await core.authors.create.execute(editor, { name: 'Ada', bio: 'Old' });
    for (const key of ['nickname', 'id', 'createdAt']) {
      const refusal = await domainErrorOf(core.authors.update.execute(editor, { id: author.id, changes: { [key]: 'x' } }));
      expect([refusal.code, refusal.issues?.[0]?.path, refusal.issues?.[0]?.message], key).to.deep.equal([ErrorCodes.VALIDATION_FAILED, key, 'is not allowed']);
    }
    const updated = await core.authors.update.execute(editor, { id: author.id, changes: { name: undefined, bio: 'New' } });
    expect(updated).to.include({ name: 'Ada', bio: 'New' });
  });
});
