/**
 * The guest rules hold for a service that embeds core and calls the engagement use cases
 * directly, with no HTTP in between: every guest write is admitted by the use case itself.
 */
import { expect } from 'chai';
import type { ReactionChoice } from '../reactions/reaction.js';
import type { Caller } from '../shared/caller.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { anonymousCaller, guestCaller, userCaller } from '../testing/callers.js';
import { memoryEngagement } from '../testing/engagement-fixture.js';
import { domainErrorOf } from '../testing/expect-domain-error.js';

const editor = userCaller('acme', 'ed-1', 'editor');

describe('Guest engagement inside the use cases (no HTTP)', () => {
  const setup = async () => {
    const world = memoryEngagement({ policy: { limit: 3 } });
    const article = await world.createArticle.execute(editor, { title: 'Hello' });
    const comment = await world.createComment.execute(editor, { articleId: article.id, comment: { content: 'First' } });
    await world.approveComment.execute(editor, { id: comment.id });
    const writes: Array<[string, (caller: Caller) => Promise<unknown>]> = [
      ['ReactToArticle', (caller) => world.reactToArticle.execute(caller, { articleId: article.id, reaction: { type: 'like' } })],
      ['ReactToComment', (caller) => world.reactToComment.execute(caller, { commentId: comment.id, reaction: { type: 'dislike' } })],
      ['CreateComment', (caller) => world.createComment.execute(caller, { articleId: article.id, comment: { content: 'Hi' } })],
    ];
    return { world, article, comment, writes };
  };
  const codeOf = async (promise: Promise<unknown>) => (await domainErrorOf(promise)).code;

  it('refuses a guest without a CAPTCHA token, without a guest id, or with a rejected token, and changes nothing', async () => {
    const { world, article, writes } = await setup();
    for (const [name, write] of writes) {
      expect(await codeOf(write(guestCaller('acme', 'guest-0001', ''))), name).to.equal(ErrorCodes.GUEST_CAPTCHA_REQUIRED);
      expect(await codeOf(write(anonymousCaller('acme'))), name).to.equal(ErrorCodes.GUEST_CAPTCHA_REQUIRED);
      expect(await codeOf(write(guestCaller('acme', undefined))), name).to.equal(ErrorCodes.GUEST_ID_MISSING);
      expect(await codeOf(write(guestCaller('acme', 'guest-0001', 'forged'))), name).to.equal(ErrorCodes.GUEST_CAPTCHA_INVALID);
    }
    expect(await world.getArticle.execute(editor, { id: article.id })).to.include({ likes: 0, dislikes: 0 });
    expect(world.repositories.limiter.size, 'refused before the rate limit: nothing counted').to.equal(0);
  });

  it('gives a guest over the limit the rate-limit error on every write, counted across the three', async () => {
    const { world, article, writes } = await setup();
    const guest = guestCaller('acme', 'guest-0001');
    for (const [, write] of writes) await write(guest);
    for (const [name, write] of writes) {
      const error = await domainErrorOf(write(guest));
      expect(error.code, name).to.equal(ErrorCodes.GUEST_RATE_LIMITED);
      expect(error.retryAfterSeconds, name).to.be.greaterThan(0);
    }
    expect(await world.getArticle.execute(editor, { id: article.id })).to.include({ likes: 1 });
    await world.reactToArticle.execute(guestCaller('acme', 'guest-0002'), { articleId: article.id, reaction: { type: 'like' } });
    await world.reactToArticle.execute(userCaller('acme', 'u-1'), { articleId: article.id, reaction: { type: 'like' } });
    expect(await world.getArticle.execute(editor, { id: article.id })).to.include({ likes: 3 });
  });

  it('lets users through untouched: no CAPTCHA, no count', async () => {
    const { world, writes } = await setup();
    for (let i = 0; i < 5; i += 1) for (const [, write] of writes) await write(userCaller('acme', 'u-1', 'member', false));
    expect(world.captcha.calls).to.deep.equal([]);
    expect(world.repositories.limiter.size).to.equal(0);
  });

  it('checks the id before admitting, and reads a deferred input only once the guest is admitted', async () => {
    const { world, article } = await setup();
    let reads = 0;
    const later = async (): Promise<ReactionChoice> => {
      reads += 1;
      return { type: 'like' };
    };
    expect(await codeOf(world.reactToArticle.execute(guestCaller('acme', 'guest-0001', ''), { articleId: 'nope', reaction: later }))).to.equal(ErrorCodes.INVALID_ARTICLE_ID);
    expect(await codeOf(world.reactToArticle.execute(guestCaller('acme', 'guest-0001', ''), { articleId: article.id, reaction: later }))).to.equal(ErrorCodes.GUEST_CAPTCHA_REQUIRED);
    expect(reads, 'a refused guest’s input is never read').to.equal(0);
    expect(await world.reactToArticle.execute(guestCaller('acme', 'guest-0001'), { articleId: article.id, reaction: later })).to.include({ likes: 1 });
    expect(reads).to.equal(1);
    expect(world.repositories.limiter.size).to.equal(1);
  });
});
