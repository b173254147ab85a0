import { conditionalUpdateContract, contentDeleteContract, keysetListContract, type ContentRepositories } from '../testing/contracts/index.js';
import { MemoryArticleRepository } from './memory-article.repository.js';
import { MemoryAuthorRepository } from './memory-author.repository.js';
import { MemoryCategoryRepository } from './memory-category.repository.js';
import { MemoryCommentRepository } from './memory-comment.repository.js';
import { MemoryFormRepository } from './memory-form.repository.js';
import { MemoryNotificationOutbox } from './memory-notification-outbox.js';
import { MemoryReactionRepository } from './memory-reaction.repository.js';
import { MemorySubmissionRepository } from './memory-submission.repository.js';

const fresh = (): ContentRepositories => ({
  forms: new MemoryFormRepository(),
  submissions: new MemorySubmissionRepository(),
  authors: new MemoryAuthorRepository(),
  categories: new MemoryCategoryRepository(),
  articles: new MemoryArticleRepository(),
  comments: new MemoryCommentRepository(),
  reactions: new MemoryReactionRepository(),
  notificationOutbox: new MemoryNotificationOutbox(),
});

keysetListContract('memory', async () => ({ repository: fresh() }));
conditionalUpdateContract('memory', async () => ({ repository: fresh() }));
contentDeleteContract('memory', async () => ({ repository: fresh() }));
