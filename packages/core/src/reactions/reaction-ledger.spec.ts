import { expect } from 'chai';
import { MemoryArticleRepository } from '../memory/memory-article.repository.js';
import { MemoryReactionRepository } from '../memory/memory-reaction.repository.js';
import { ManualClock } from '../shared/clock.js';
import { articleRecord } from '../testing/engagement-records.js';
import { ReactionLedger } from './reaction-ledger.js';
import type { ReactionTotals } from './reaction.js';

describe('ReactionLedger', () => {
  const setup = async () => {
    const articles = new MemoryArticleRepository();
    const reactions = new MemoryReactionRepository();
    const article = articleRecord('acme');
    await articles.insert(article);
    return { articles, reactions, article, ledger: new ReactionLedger(reactions, articles, 'article', new ManualClock()) };
  };

  describe('when one actor’s increments land in another order than their record changes', () => {
    it('never shows a negative total, and ends equal to the records', async () => {
      const { articles, reactions, article, ledger } = await setup();
      // A slow store for additions: the removal's −1 lands before the like's +1, as can happen
      // with two requests on two connections to MongoDB.
      const increment = articles.incrementTotals.bind(articles);
      articles.incrementTotals = async (tenantId: string, id: string, delta: ReactionTotals) => {
        if (delta.likes > 0) await new Promise((resolve) => setTimeout(resolve, 10));
        return increment(tenantId, id, delta);
      };
      const [liked, removed] = await Promise.all([
        ledger.change('acme', article.id, 'user:a', 'like'),
        ledger.change('acme', article.id, 'user:a', null),
      ]);
      expect(removed).to.deep.equal({ likes: 0, dislikes: 0 });
      expect(liked).to.deep.equal({ likes: 0, dislikes: 0 });
      expect((await articles.findById('acme', article.id))?.likes).to.equal(0);
      expect(await reactions.findReaction({ tenantId: 'acme', targetKind: 'article', targetId: article.id, actor: 'user:a' })).to.equal(null);
    });
  });

  describe('when the target is gone', () => {
    it('answers null', async () => {
      const { ledger } = await setup();
      expect(await ledger.change('acme', '0123456789abcdef01234567', 'user:a', 'like')).to.equal(null);
    });
  });

  describe('when a change changes nothing and the caller read the totals', () => {
    it('answers those totals without touching the target, and still increments a real change', async () => {
      const { articles, article, ledger } = await setup();
      let increments = 0;
      const increment = articles.incrementTotals.bind(articles);
      articles.incrementTotals = async (tenantId: string, id: string, delta: ReactionTotals) => {
        increments += 1;
        return increment(tenantId, id, delta);
      };
      expect(await ledger.change('acme', article.id, 'user:a', null, { likes: 3, dislikes: -1 })).to.deep.equal({ likes: 3, dislikes: 0 });
      expect(increments).to.equal(0);
      expect(await ledger.change('acme', article.id, 'user:a', 'like', { likes: 3, dislikes: 0 })).to.deep.equal({ likes: 1, dislikes: 0 });
      expect(await ledger.change('acme', article.id, 'user:a', 'like', { likes: 1, dislikes: 0 })).to.deep.equal({ likes: 1, dislikes: 0 });
      expect(increments).to.equal(1);
    });
  });
});
