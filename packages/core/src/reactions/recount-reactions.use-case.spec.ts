import { expect } from 'chai';
import { reactionChoice } from '../reactions/reaction.js';
import { userCaller } from '../testing/callers.js';
import { memoryEngagement } from '../testing/engagement-fixture.js';

describe('RecountReactions', () => {
  const editor = (tenantId: string) => userCaller(tenantId, 'ed-1', 'editor');

  const setup = async () => {
    const world = memoryEngagement();
    const { tenants } = world.repositories;
    for (const id of ['acme', 'other']) await tenants.insert({ id, name: id, aiTokenLimitMonthly: null, adminEmails: [], createdAt: new Date() });
    const articles = [];
    for (let i = 0; i < 5; i += 1) articles.push(await world.createArticle.execute(editor('acme'), { title: `A${i}` }));
    const foreign = await world.createArticle.execute(editor('other'), { title: 'B' });
    for (const [i, article] of articles.entries()) {
      for (let r = 0; r <= i; r += 1) await world.reactToArticle.execute(userCaller('acme', `r${r}`), { articleId: article.id, reaction: reactionChoice(r % 2 ? 'dislike' : 'like') });
    }
    await world.reactToArticle.execute(userCaller('other', 'r0'), { articleId: foreign.id, reaction: { type: 'like' } });
    const comment = await world.createComment.execute(userCaller('acme', 'r0'), { articleId: articles[0]!.id, comment: { content: 'Hi' } });
    await world.approveComment.execute(editor('acme'), { id: comment.id });
    await world.reactToComment.execute(userCaller('acme', 'r1'), { commentId: comment.id, reaction: { type: 'dislike' } });
    return { world, articles, foreign, comment };
  };

  describe('when the totals match the records', () => {
    it('checks every article and comment of every tenant, page by page, and reports no drift', async () => {
      const { world } = await setup();
      const report = await world.recount.execute({ pageSize: 2 });
      expect(report).to.deep.equal({ tenants: 2, checked: { article: 6, comment: 1 }, drifts: [], repaired: 0 });
    });
  });

  describe('when drift has been planted', () => {
    const plant = async () => {
      const fixture = await setup();
      const { articles, comments } = fixture.world.repositories;
      await articles.incrementTotals('acme', fixture.articles[3]!.id, { likes: 3, dislikes: 0 });
      await articles.incrementTotals('other', fixture.foreign.id, { likes: -1, dislikes: 0 });
      await comments.incrementTotals('acme', fixture.comment.id, { likes: 0, dislikes: -1 });
      return fixture;
    };

    it('reports each drift with stored and counted totals and changes nothing without the flag', async () => {
      const { world, articles, foreign, comment } = await plant();
      const report = await world.recount.execute({ pageSize: 2 });
      expect(report.repaired).to.equal(0);
      expect(report.drifts).to.have.deep.members([
        { tenantId: 'acme', targetKind: 'article', targetId: articles[3]!.id, stored: { likes: 5, dislikes: 2 }, counted: { likes: 2, dislikes: 2 } },
        { tenantId: 'other', targetKind: 'article', targetId: foreign.id, stored: { likes: 0, dislikes: 0 }, counted: { likes: 1, dislikes: 0 } },
        { tenantId: 'acme', targetKind: 'comment', targetId: comment.id, stored: { likes: 0, dislikes: 0 }, counted: { likes: 0, dislikes: 1 } },
      ]);
      expect((await world.getArticle.execute(editor('acme'), { id: articles[3]!.id })).likes).to.equal(5);
    });

    it('repairs every drift with the flag, after which a recount is clean', async () => {
      const { world, articles, foreign, comment } = await plant();
      const report = await world.recount.execute({ repair: true });
      expect(report.drifts).to.have.length(3);
      expect(report.repaired).to.equal(3);
      expect(await world.getArticle.execute(editor('acme'), { id: articles[3]!.id })).to.include({ likes: 2, dislikes: 2 });
      expect(await world.getArticle.execute(editor('other'), { id: foreign.id })).to.include({ likes: 1, dislikes: 0 });
      expect(await world.commentSummary.execute(editor('acme'), { id: comment.id })).to.include({ likes: 0, dislikes: 1 });
      expect((await world.recount.execute()).drifts).to.deep.equal([]);
    });

    it('limits itself to one tenant when asked', async () => {
      const { world } = await plant();
      const report = await world.recount.execute({ tenantId: 'other', repair: true });
      expect(report.tenants).to.equal(1);
      expect(report.checked).to.deep.equal({ article: 1, comment: 0 });
      expect(report.drifts.map((d) => d.tenantId)).to.deep.equal(['other']);
      expect((await world.recount.execute()).drifts).to.have.length(2);
    });
  });
});
