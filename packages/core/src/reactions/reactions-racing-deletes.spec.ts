/**
 * A reaction racing the delete of what it is on (§2.7, §6.4): whichever way they interleave, once
 * both have finished no reaction record of the deleted article or comment is left (a refused
 * reaction stores nothing, and a delete leaves nothing behind: decision 0763). The interleavings
 * are forced by holding one side's store call until the other side has done its part.
 */
import { expect } from 'chai';
import type { ReactionTargetKind } from './reaction.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { userCaller } from '../testing/callers.js';
import { memoryEngagement } from '../testing/engagement-fixture.js';
import { domainErrorOf } from '../testing/expect-domain-error.js';
import { entityTag } from '../shared/entity-tag.js';
import { holdNext, signal } from '../testing/held-calls.js';

const editor = userCaller('acme', 'ed-1', 'editor');
const reader = userCaller('acme', 'reader-1');

const setup = async () => {
  const world = memoryEngagement();
  const article = await world.createArticle.execute(editor, { title: 'Hello' });
  const comment = await world.createComment.execute(reader, { articleId: article.id, comment: { content: 'Nice' } });
  await world.approveComment.execute(editor, { id: comment.id });
  const held = async (kind: ReactionTargetKind, id: string) => {
    const totals = (await world.repositories.reactions.tally('acme', kind, [id])).get(id);
    return (totals?.likes ?? 0) + (totals?.dislikes ?? 0);
  };
  return { world, article, comment, reactions: world.repositories.reactions, held };
};

type World = Awaited<ReturnType<typeof setup>>;

/** The two kinds of target: how to react to one, delete it, and which store call removes it last. */
const TARGETS = [
  {
    kind: 'article',
    notFound: ErrorCodes.ARTICLE_NOT_FOUND,
    idOf: (world: World) => world.article.id,
    react: (world: World, id: string) => world.world.reactToArticle.execute(reader, { articleId: id, reaction: { type: 'like' } }),
    remove: (world: World, id: string) => world.world.deleteArticle.execute(editor, { id }),
    removal: (world: World) => [world.world.repositories.articles, 'delete'] as const,
  },
  {
    kind: 'comment',
    notFound: ErrorCodes.COMMENT_NOT_FOUND,
    idOf: (world: World) => world.comment.id,
    react: (world: World, id: string) => world.world.reactToComment.execute(reader, { commentId: id, reaction: { type: 'like' } }),
    remove: (world: World, id: string) => world.world.deleteComment.execute(editor, { id }),
    removal: (world: World) => [world.world.repositories.comments, 'delete'] as const,
  },
] as const;

describe('A reaction racing the delete of its target', () => {
  for (const target of TARGETS) {
    describe(`when the ${target.kind} is deleted between the reaction’s check and its write`, () => {
      it(`answers ${target.notFound} and leaves no reaction record`, async () => {
        const world = await setup();
        const id = target.idOf(world);
        const release = signal();
        const arrived = holdNext(world.reactions, 'setReaction', release.promise);
        const reacting = domainErrorOf(target.react(world, id));
        await arrived;
        await target.remove(world, id);
        release.fire();
        expect((await reacting).code).to.equal(target.notFound);
        expect(await world.held(target.kind, id)).to.equal(0);
      });
    });

    describe(`when the reaction lands while the ${target.kind}’s delete is removing it`, () => {
      it('answers the reaction, and the delete still leaves no reaction record', async () => {
        const world = await setup();
        const id = target.idOf(world);
        const release = signal();
        const [store, method] = target.removal(world);
        const arrived = holdNext(store, method, release.promise);
        const deleting = target.remove(world, id);
        await arrived; // its reactions are gone, the record not yet
        expect(await target.react(world, id)).to.include({ likes: 1 });
        release.fire();
        await deleting;
        expect(await world.held(target.kind, id)).to.equal(0);
      });
    });
  }

  describe('when a comment reaction lands while the article’s delete is removing its comments', () => {
    it('leaves no reaction record of the comment', async () => {
      const { world, article, comment, held } = await setup();
      const release = signal();
      const arrived = holdNext(world.repositories.comments, 'deleteByArticle', release.promise);
      const deleting = world.deleteArticle.execute(editor, { id: article.id });
      await arrived; // the comments' reactions are gone, the comments not yet
      expect(await world.reactToComment.execute(reader, { commentId: comment.id, reaction: { type: 'like' } })).to.include({ likes: 1 });
      release.fire();
      await deleting;
      expect(await held('comment', comment.id)).to.equal(0);
    });
  });

  describe('when the article has more comments than one page of its delete', () => {
    it('takes the reactions of every page’s comments, the last page’s too', async () => {
      const { world, article, held } = await setup(); // one comment already
      let newest = '';
      for (let i = 0; i < 500; i += 1) newest = (await world.createComment.execute(reader, { articleId: article.id, comment: { content: `#${i}` } })).id;
      await world.approveComment.execute(editor, { id: newest });
      await world.reactToComment.execute(reader, { commentId: newest, reaction: { type: 'like' } });
      expect(await held('comment', newest)).to.equal(1);
      await world.deleteArticle.execute(editor, { id: article.id });
      expect(await held('comment', newest)).to.equal(0);
    });
  });

  describe('when a pending comment is approved and reacted to between an If-Match delete’s read and its writes', () => {
    it('answers 412 and leaves the reaction the approved comment counts (decision 0765)', async () => {
      const { world, article, held } = await setup();
      const pending = await world.createComment.execute(reader, { articleId: article.id, comment: { content: 'Later' } });
      const comments = world.repositories.comments;
      const read = comments.findById;
      // The delete's read answers the pending comment; the approval and the reaction land right after it.
      comments.findById = async (...args) => {
        const found = await read.apply(comments, args);
        comments.findById = read;
        await world.approveComment.execute(editor, { id: pending.id });
        await world.reactToComment.execute(reader, { commentId: pending.id, reaction: { type: 'like' } });
        return found;
      };
      const refusal = await domainErrorOf(world.deleteComment.execute(editor, { id: pending.id, ifMatch: entityTag(pending) }));
      expect(refusal.code).to.equal(ErrorCodes.PRECONDITION_FAILED);
      expect(await held('comment', pending.id)).to.equal(1);
      expect(await world.commentSummary.execute(reader, { id: pending.id })).to.include({ likes: 1 });
    });
  });
});
