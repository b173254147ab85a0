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
      expect(limiter.size, 'the current minute and the one just ended').to.equal(2);
    });

    it('keeps the counters of open windows, whatever their lengths, and of those ended less than a minute before', async () => {
      const limiter = new MemoryGuestRateLimiter();
      const minute = 60_000;
      const hit = (guestId: string, startsAt: number, length: number) =>
        limiter.hit({ tenantId: 'acme', guestId, startsAt: new Date(startsAt), endsAt: new Date(startsAt + length) });
      for (let i = 0; i < 3; i += 1) await hit(`guest-${i}`, 0, minute);
      expect(await hit('guest-0', 0, minute)).to.equal(2);
      expect(await hit('guest-0', 0, 60 * minute), 'a longer window of the same start').to.equal(1);
      expect(await hit('guest-0', minute, minute), 'the next minute').to.equal(1);
      expect(await hit('guest-0', 0, minute), 'a late hit of the minute just ended').to.equal(3);
      expect(await hit('guest-0', 2 * minute, minute)).to.equal(1);
      expect(limiter.size, 'the first minute ended a minute ago: its three counters went').to.equal(3);
      expect(await hit('guest-0', 0, 60 * minute)).to.equal(2);
      expect(await hit('guest-0', 61 * minute, minute)).to.equal(1);
      expect(limiter.size).to.equal(1);
    });
  });
});
