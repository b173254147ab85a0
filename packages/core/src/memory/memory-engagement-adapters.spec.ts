import { expect } from 'chai';
import {
  articleRepositoryContract,
  authorRepositoryContract,
  categoryRepositoryContract,
  commentRepositoryContract,
  guestRateLimiterContract,
  reactionRepositoryContract,
} from '../testing/contracts/index.js';
import { MemoryArticleRepository } from './memory-article.repository.js';
import { MemoryAuthorRepository } from './memory-author.repository.js';
import { MemoryCategoryRepository } from './memory-category.repository.js';
import { MemoryCommentRepository } from './memory-comment.repository.js';
import { MemoryGuestRateLimiter } from './memory-guest-rate-limiter.js';
import { MemoryReactionRepository } from './memory-reaction.repository.js';

authorRepositoryContract('memory', async () => ({ repository: new MemoryAuthorRepository() }));
categoryRepositoryContract('memory', async () => ({ repository: new MemoryCategoryRepository() }));
articleRepositoryContract('memory', async () => ({ repository: new MemoryArticleRepository() }));
commentRepositoryContract('memory', async () => ({ repository: new MemoryCommentRepository() }));
reactionRepositoryContract('memory', async () => ({ repository: new MemoryReactionRepository() }));
guestRateLimiterContract('memory', async () => ({ repository: new MemoryGuestRateLimiter() }));

describe('MemoryGuestRateLimiter', () => {
  describe('when many windows have ended', () => {
    it('forgets their counters, as a TTL index would', async () => {
      const limiter = new MemoryGuestRateLimiter();
      const minute = 60_000;
      for (let i = 0; i < 1500; i += 1) {
        const startsAt = new Date(i * minute);
        await limiter.hit({ tenantId: 'acme', guestId: `guest-${i}`, startsAt, endsAt: new Date((i + 1) * minute) });
      }
      expect(limiter.size).to.be.below(600);
    });
  });
});
