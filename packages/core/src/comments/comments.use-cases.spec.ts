import { expect } from 'chai';
import { reactionChoice } from '../reactions/reaction.js';
import type { ReactionType } from '../reactions/reaction.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { anonymousCaller, guestCaller, userCaller } from '../testing/callers.js';
import { memoryEngagement } from '../testing/engagement-fixture.js';
import { changedEvents } from '../testing/changed-events.js';
import { domainErrorOf } from '../testing/expect-domain-error.js';
import { ApproveComment } from './approve-comment.use-case.js';

const editor = userCaller('acme', 'ed-1', 'editor');
const reader = userCaller('acme', 'reader-1');
const guest = guestCaller('acme', 'guest-0001');
const UNKNOWN = '0123456789abcdef01234567';

const setup = async (settings: { article?: boolean; category?: boolean; sub?: boolean } = {}) => {
  const world = memoryEngagement();
  const news = await world.createCategory.execute(editor, { name: 'News', reactionsEnabled: settings.category ?? true });
  const local = await world.createCategory.execute(editor, { name: 'Local', parentId: news.id, reactionsEnabled: settings.sub ?? true });
  const article = await world.createArticle.execute(editor, {
    title: 'Hello',
    categoryId: news.id,
    subCategoryId: local.id,
    reactionsEnabled: settings.article ?? true,
  });
  const pending = await world.createComment.execute(reader, { articleId: article.id, comment: { content: 'First!' } });
  const approved = await world.createComment.execute(guest, { articleId: article.id, comment: { content: 'Second', authorName: 'Bo' } });
  await world.approveComment.execute(editor, { id: approved.id });
  return { world, article, pending, approved };
};

describe('CreateComment', () => {
  describe('when a user or a guest comments', () => {
    it('stores a pending comment, with the user as creator', async () => {
      const { world, article } = await setup();
      const comment = await world.createComment.execute(reader, { articleId: article.id.toUpperCase(), comment: { content: ' Hi ', authorName: 'Reader' } });
      expect(Object.keys(comment)).to.have.members([
        'id', 'articleId', 'content', 'authorName', 'status', 'createdBy', 'likes', 'dislikes', 'createdAt', 'updatedAt',
      ]);
      expect(comment).to.include({ articleId: article.id, content: 'Hi', authorName: 'Reader', status: 'pending', createdBy: 'reader-1', likes: 0, dislikes: 0 });
    });

    it('keeps a guest’s id on the record but never shows it', async () => {
      const { world, article } = await setup();
      const comment = await world.createComment.execute(guest, { articleId: article.id, comment: { content: 'From a guest' } });
      expect(comment.createdBy).to.equal(null);
      expect(JSON.stringify(comment)).not.to.contain('guest-0001');
      expect((await world.repositories.comments.findById('acme', comment.id))?.guestId).to.equal('guest-0001');
    });
  });

  describe('when a check fails', () => {
    it('answers in order: invalid id, no actor, content, article not found', async () => {
      const { world, article } = await setup();
      const create = world.createComment;
      expect((await domainErrorOf(create.execute(anonymousCaller('acme'), { articleId: 'bad', comment: {} }))).code).to.equal(ErrorCodes.INVALID_ARTICLE_ID);
      expect((await domainErrorOf(create.execute(guestCaller('acme', undefined), { articleId: UNKNOWN, comment: {} }))).code).to.equal(ErrorCodes.GUEST_ID_MISSING);
      expect((await domainErrorOf(create.execute(reader, { articleId: UNKNOWN, comment: {} }))).message).to.equal('comment.content is required');
      expect((await domainErrorOf(create.execute(reader, { articleId: UNKNOWN, comment: { content: 'x' } }))).code).to.equal(ErrorCodes.ARTICLE_NOT_FOUND);
      expect((await domainErrorOf(create.execute(userCaller('other', 'u'), { articleId: article.id, comment: { content: 'x' } }))).code).to.equal(ErrorCodes.ARTICLE_NOT_FOUND);
    });

    it('refuses blank or over-long content and an over-long author name', async () => {
      const { world, article } = await setup();
      for (const [input, message] of [
        [{ content: '  ' }, 'comment.content must not be blank'],
        [{ content: 'x'.repeat(5001) }, 'comment.content must be at most 5000 characters'],
        [{ content: 'ok', authorName: 'x'.repeat(101) }, 'comment.authorName must be at most 100 characters'],
      ] as const) {
        const error = await domainErrorOf(world.createComment.execute(reader, { articleId: article.id, comment: input }));
        expect(error.code).to.equal(ErrorCodes.VALIDATION_FAILED);
        expect(error.message).to.equal(message);
      }
    });
  });
});

describe('ApproveComment', () => {
  it('approves a pending comment once; approving again answers the same approved comment', async () => {
    const { world, pending } = await setup();
    const approved = await world.approveComment.execute(userCaller('acme', 'ad-1', 'admin'), { id: pending.id.toUpperCase() });
    expect(approved).to.include({ id: pending.id, status: 'approved' });
    expect(await world.approveComment.execute(editor, { id: pending.id })).to.deep.equal(approved);
  });

  it('reports one change (one comment.approved) when the same user approves twice in the same millisecond', async () => {
    const { world, pending } = await setup(); // the fixture's clock stands still
    const { events, sent } = changedEvents();
    const approve = new ApproveComment(world.repositories.comments, world.clock, events);
    await approve.execute(editor, { id: pending.id });
    await approve.execute(editor, { id: pending.id });
    expect(sent).to.deep.equal(['comment.approved']);
  });

  it('answers UNAUTHORIZED, FORBIDDEN, INVALID_COMMENT_ID and COMMENT_NOT_FOUND in that order', async () => {
    const { world, pending } = await setup();
    const approve = world.approveComment;
    expect((await domainErrorOf(approve.execute(userCaller('acme', 'ed', 'editor', false), { id: 'bad' }))).code).to.equal(ErrorCodes.UNAUTHORIZED);
    expect((await domainErrorOf(approve.execute(userCaller('acme', 'au', 'author'), { id: 'bad' }))).code).to.equal(ErrorCodes.FORBIDDEN);
    expect((await domainErrorOf(approve.execute(editor, { id: 'bad' }))).code).to.equal(ErrorCodes.INVALID_COMMENT_ID);
    expect((await domainErrorOf(approve.execute(editor, { id: UNKNOWN }))).code).to.equal(ErrorCodes.COMMENT_NOT_FOUND);
    expect((await domainErrorOf(approve.execute(userCaller('other', 'ed', 'editor'), { id: pending.id }))).code).to.equal(ErrorCodes.COMMENT_NOT_FOUND);
  });
});

describe('ReactToComment and GetCommentReactionSummary', () => {
  describe('when callers react to an approved comment', () => {
    it('answers the summary with the caller’s own reaction after each change', async () => {
      const { world, approved } = await setup();
      const react = world.reactToComment;
      expect(await react.execute(reader, { commentId: approved.id, reaction: { type: 'like' } })).to.deep.equal({ commentId: approved.id, likes: 1, dislikes: 0, userReaction: 'like' });
      expect(await react.execute(guest, { commentId: approved.id, reaction: { type: 'dislike' } })).to.deep.equal({ commentId: approved.id, likes: 1, dislikes: 1, userReaction: 'dislike' });
      expect(await react.execute(reader, { commentId: approved.id, reaction: { type: 'dislike' } })).to.deep.equal({ commentId: approved.id, likes: 0, dislikes: 2, userReaction: 'dislike' });
      expect(await react.execute(reader, { commentId: approved.id, reaction: null })).to.deep.equal({ commentId: approved.id, likes: 0, dislikes: 1, userReaction: null });
      expect(await react.execute(reader, { commentId: approved.id, reaction: null })).to.deep.equal({ commentId: approved.id, likes: 0, dislikes: 1, userReaction: null });
    });

    it('reads the summary for a user, a guest without CAPTCHA token and an anonymous caller', async () => {
      const { world, approved } = await setup();
      await world.reactToComment.execute(reader, { commentId: approved.id, reaction: { type: 'like' } });
      await world.reactToComment.execute(guest, { commentId: approved.id, reaction: { type: 'dislike' } });
      const summary = world.commentSummary;
      expect(await summary.execute(reader, { id: approved.id })).to.deep.equal({ commentId: approved.id, likes: 1, dislikes: 1, userReaction: 'like' });
      expect((await summary.execute(guestCaller('acme', 'guest-0001', undefined), { id: approved.id })).userReaction).to.equal('dislike');
      expect((await summary.execute(guestCaller('acme', 'guest-0002'), { id: approved.id })).userReaction).to.equal(null);
      expect((await summary.execute(anonymousCaller('acme'), { id: approved.id.toUpperCase() })).userReaction).to.equal(null);
      expect((await summary.execute(userCaller('acme', 'guest-0001'), { id: approved.id })).userReaction).to.equal(null);
    });

    it('counts 30 concurrent reactions and 30 concurrent changes exactly', async () => {
      const { world, approved } = await setup();
      const callers = Array.from({ length: 30 }, (_, i) => (i % 2 ? userCaller('acme', `r-${i}`) : guestCaller('acme', `guest-${i}-xyz`)));
      await Promise.all(callers.map((caller) => world.reactToComment.execute(caller, { commentId: approved.id, reaction: { type: 'dislike' } })));
      const next: Array<ReactionType | null> = callers.map((_, i) => (i < 12 ? 'like' : i < 20 ? null : 'dislike'));
      await Promise.all(callers.map((caller, i) => world.reactToComment.execute(caller, { commentId: approved.id, reaction: reactionChoice(next[i]!) })));
      expect(await world.commentSummary.execute(editor, { id: approved.id })).to.include({ likes: 12, dislikes: 10 });
      expect((await world.recount.execute()).drifts).to.deep.equal([]);
    });
  });

  describe('when a check fails', () => {
    it('treats a pending comment as not found, for reactions and for the summary', async () => {
      const { world, pending } = await setup();
      expect((await domainErrorOf(world.reactToComment.execute(reader, { commentId: pending.id, reaction: { type: 'like' } }))).code).to.equal(ErrorCodes.COMMENT_NOT_FOUND);
      expect((await domainErrorOf(world.commentSummary.execute(reader, { id: pending.id }))).code).to.equal(ErrorCodes.COMMENT_NOT_FOUND);
    });

    it('answers INVALID_COMMENT_ID first, then GUEST_ID_MISSING, then COMMENT_NOT_FOUND', async () => {
      const { world, approved } = await setup();
      const react = world.reactToComment;
      expect((await domainErrorOf(react.execute(anonymousCaller('acme'), { commentId: 'bad', reaction: { type: 'like' } }))).code).to.equal(ErrorCodes.INVALID_COMMENT_ID);
      expect((await domainErrorOf(world.commentSummary.execute(reader, { id: 'bad' }))).code).to.equal(ErrorCodes.INVALID_COMMENT_ID);
      expect((await domainErrorOf(react.execute(guestCaller('acme', undefined), { commentId: UNKNOWN, reaction: { type: 'like' } }))).code).to.equal(ErrorCodes.GUEST_ID_MISSING);
      expect((await domainErrorOf(react.execute(reader, { commentId: UNKNOWN, reaction: null }))).code).to.equal(ErrorCodes.COMMENT_NOT_FOUND);
      expect((await domainErrorOf(react.execute(userCaller('other', 'x'), { commentId: approved.id, reaction: { type: 'like' } }))).code).to.equal(ErrorCodes.COMMENT_NOT_FOUND);
      expect((await domainErrorOf(world.commentSummary.execute(userCaller('other', 'x'), { id: approved.id }))).code).to.equal(ErrorCodes.COMMENT_NOT_FOUND);
    });

    for (const where of ['article', 'category', 'sub'] as const) {
      it(`answers REACTIONS_DISABLED when the comment’s ${where === 'sub' ? 'sub-category' : where} disables reactions; the summary still reads`, async () => {
        const { world, approved } = await setup({ [where]: false });
        expect((await domainErrorOf(world.reactToComment.execute(reader, { commentId: approved.id, reaction: { type: 'like' } }))).code).to.equal(ErrorCodes.REACTIONS_DISABLED);
        expect(await world.commentSummary.execute(reader, { id: approved.id })).to.deep.equal({ commentId: approved.id, likes: 0, dislikes: 0, userReaction: null });
      });
    }
  });
});
