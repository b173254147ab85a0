import { expect } from 'chai';
import { reactionDelta, visibleTotals, type ReactionType } from './reaction.js';

describe('reactionDelta', () => {
  const cases: Array<[ReactionType | null, ReactionType | null, number, number]> = [
    [null, 'like', 1, 0],
    [null, 'dislike', 0, 1],
    [null, null, 0, 0],
    ['like', 'like', 0, 0],
    ['like', 'dislike', -1, 1],
    ['like', null, -1, 0],
    ['dislike', 'like', 1, -1],
    ['dislike', 'dislike', 0, 0],
    ['dislike', null, 0, -1],
  ];
  for (const [before, after, likes, dislikes] of cases) {
    it(`moves ${String(before)} → ${String(after)} by ${likes} likes and ${dislikes} dislikes`, () => {
      expect(reactionDelta(before, after)).to.deep.equal({ likes, dislikes });
    });
  }
});

describe('visibleTotals', () => {
  describe('when a stored total dipped below zero for an instant', () => {
    it('shows zero instead, and leaves other totals as they are', () => {
      expect(visibleTotals({ likes: -1, dislikes: 4 })).to.deep.equal({ likes: 0, dislikes: 4 });
      expect(visibleTotals({ likes: 3, dislikes: -2 })).to.deep.equal({ likes: 3, dislikes: 0 });
    });
  });
});
