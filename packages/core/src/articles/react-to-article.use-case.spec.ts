import { expect } from 'chai';
import { reactionChoice } from '../reactions/reaction.js';
import type { ReactionType } from '../reactions/reaction.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { anonymousCaller, guestCaller, userCaller } from '../testing/callers.js';
import { memoryEngagement } from '../testing/engagement-fixture.js';
import { domainErrorOf } from '../testing/expect-domain-error.js';

const editor = userCaller('acme', 'ed-1', 'editor');
const reader = (n: number) => userCaller('acme', `reader-${n}`);

describe('ReactToArticle', () => {
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
    return { world, article, react: world.reactToArticle };
  };

  describe('when a caller likes, switches and removes', () => {
    it('moves the totals by the difference and answers them after each change', async () => {
      const { world, article, react } = await setup();
      expect(await react.execute(reader(1), { articleId: article.id, reaction: { type: 'like' } })).to.deep.equal({ articleId: article.id, likes: 1, dislikes: 0 });
      expect(await react.execute(reader(2), { articleId: article.id, reaction: { type: 'like' } })).to.deep.equal({ articleId: article.id, likes: 2, dislikes: 0 });
      expect(await react.execute(reader(1), { articleId: article.id, reaction: { type: 'like' } })).to.deep.equal({ articleId: article.id, likes: 2, dislikes: 0 });
      expect(await react.execute(reader(1), { articleId: article.id, reaction: { type: 'dislike' } })).to.deep.equal({ articleId: article.id, likes: 1, dislikes: 1 });
      expect(await react.execute(reader(1), { articleId: article.id, reaction: null })).to.deep.equal({ articleId: article.id, likes: 1, dislikes: 0 });
      expect(await react.execute(reader(1), { articleId: article.id, reaction: null })).to.deep.equal({ articleId: article.id, likes: 1, dislikes: 0 });
      expect(await world.getArticle.execute(reader(3), { id: article.id })).to.include({ likes: 1, dislikes: 0 });
    });

    it('answers with the canonical id when given upper-case hex', async () => {
      const { article, react } = await setup();
      expect((await react.execute(reader(1), { articleId: article.id.toUpperCase(), reaction: { type: 'like' } })).articleId).to.equal(article.id);
    });

    it('keeps a user and a guest with the same id apart', async () => {
      const { article, react } = await setup();
      await react.execute(userCaller('acme', 'same-id-1'), { articleId: article.id, reaction: { type: 'like' } });
      const totals = await react.execute(guestCaller('acme', 'same-id-1'), { articleId: article.id, reaction: { type: 'dislike' } });
      expect(totals).to.include({ likes: 1, dislikes: 1 });
      // A user id may hold a colon: one that reads like a guest's key is still the user's own.
      await react.execute(userCaller('acme', 'guest:same-id-1'), { articleId: article.id, reaction: { type: 'like' } });
      expect(await react.execute(guestCaller('acme', 'same-id-1'), { articleId: article.id, reaction: null })).to.include({ likes: 2, dislikes: 0 });
    });
  });

  describe('when a caller names both a user and a guest', () => {
    it('reacts as the user (an embedder’s caller; HTTP never sends both)', async () => {
      const { article, react } = await setup();
      const both = { ...userCaller('acme', 'both-1'), guest: { id: 'guest-both-1', captchaToken: 'token' } };
      expect(await react.execute(both, { articleId: article.id, reaction: { type: 'like' } })).to.include({ likes: 1 });
      expect(await react.execute(userCaller('acme', 'both-1'), { articleId: article.id, reaction: null })).to.include({ likes: 0 });
    });
  });

  describe('when a check fails', () => {
    it('answers INVALID_ARTICLE_ID first, even for a caller who is no actor', async () => {
      const { react } = await setup();
      expect((await domainErrorOf(react.execute(anonymousCaller('acme'), { articleId: 'nope', reaction: { type: 'like' } }))).code).to.equal(ErrorCodes.INVALID_ARTICLE_ID);
    });

    it('answers GUEST_ID_MISSING for a guest without an id before looking up the article', async () => {
      const { react } = await setup();
      const error = await domainErrorOf(react.execute(guestCaller('acme', undefined), { articleId: '0123456789abcdef01234567', reaction: { type: 'like' } }));
      expect(error.code).to.equal(ErrorCodes.GUEST_ID_MISSING);
    });

    it('answers ARTICLE_NOT_FOUND for an unknown article and for another tenant’s', async () => {
      const { article, react } = await setup();
      expect((await domainErrorOf(react.execute(reader(1), { articleId: '0123456789abcdef01234567', reaction: { type: 'like' } }))).code).to.equal(ErrorCodes.ARTICLE_NOT_FOUND);
      expect((await domainErrorOf(react.execute(userCaller('other', 'u'), { articleId: article.id, reaction: null }))).code).to.equal(ErrorCodes.ARTICLE_NOT_FOUND);
    });

    for (const where of ['article', 'category', 'sub'] as const) {
      it(`answers REACTIONS_DISABLED when the ${where === 'sub' ? 'sub-category' : where} disables reactions, and changes nothing`, async () => {
        const { world, article, react } = await setup({ [where]: false });
        for (const type of ['like', null] as const) {
          const error = await domainErrorOf(react.execute(reader(1), { articleId: article.id, reaction: reactionChoice(type) }));
          expect(error.code).to.equal(ErrorCodes.REACTIONS_DISABLED);
          expect(error.message).to.equal('Reactions are disabled for this article');
        }
        expect(await world.repositories.reactions.tally('acme', 'article', [article.id])).to.deep.equal(new Map([[article.id, { likes: 0, dislikes: 0 }]]));
      });
    }

    it('refuses a reaction type other than like or dislike', async () => {
      const { article, react } = await setup();
      const error = await domainErrorOf(react.execute(reader(1), { articleId: article.id, reaction: reactionChoice('love' as ReactionType) }));
      expect(error.code).to.equal(ErrorCodes.VALIDATION_FAILED);
    });
  });

  describe('when requests race', () => {
    it('counts 30 concurrent likes by 30 callers, then 30 concurrent switches, removals and repeats exactly', async () => {
      const { world, article, react } = await setup();
      const callers = Array.from({ length: 30 }, (_, i) => (i % 2 ? reader(i) : guestCaller('acme', `guest-${i}-abcdef`)));
      await Promise.all(callers.map((caller) => react.execute(caller, { articleId: article.id, reaction: { type: 'like' } })));
      expect(await world.getArticle.execute(editor, { id: article.id })).to.include({ likes: 30, dislikes: 0 });

      const second: Array<ReactionType | null> = callers.map((_, i) => (i % 3 === 0 ? 'dislike' : i % 3 === 1 ? null : 'like'));
      const answers = await Promise.all(callers.map((caller, i) => react.execute(caller, { articleId: article.id, reaction: reactionChoice(second[i]!) })));
      expect(await world.getArticle.execute(editor, { id: article.id })).to.include({ likes: 10, dislikes: 10 });
      for (const answer of answers) {
        expect(answer.likes).to.be.within(0, 30);
        expect(answer.dislikes).to.be.within(0, 10);
      }
      const report = await world.recount.execute({ tenantId: 'acme' });
      expect(report.drifts).to.deep.equal([]);
    });

    it('counts one caller’s ten concurrent likes once', async () => {
      const { world, article, react } = await setup();
      const answers = await Promise.all(Array.from({ length: 10 }, () => react.execute(reader(1), { articleId: article.id, reaction: { type: 'like' } })));
      expect(await world.getArticle.execute(editor, { id: article.id })).to.include({ likes: 1, dislikes: 0 });
      expect(answers.every((answer) => answer.likes <= 1)).to.equal(true);
    });

    it('never answers a negative total and ends exact while one caller races likes, dislikes and removals', async () => {
      const { world, article, react } = await setup();
      const types: Array<ReactionType | null> = Array.from({ length: 60 }, (_, i) => (['like', null, 'dislike', null] as const)[i % 4]!);
      const answers = await Promise.all(types.map((type) => react.execute(reader(1), { articleId: article.id, reaction: reactionChoice(type) })));
      for (const answer of answers) {
        expect(answer.likes).to.be.at.least(0);
        expect(answer.dislikes).to.be.at.least(0);
      }
      const held = await world.repositories.reactions.findReaction({ tenantId: 'acme', targetKind: 'article', targetId: article.id, actor: 'user:reader-1' });
      expect(await world.getArticle.execute(editor, { id: article.id })).to.include({
        likes: held === 'like' ? 1 : 0,
        dislikes: held === 'dislike' ? 1 : 0,
      });
      expect((await world.recount.execute()).drifts).to.deep.equal([]);
    });
  });
});
