/** Builders of valid stored records for the engagement contract suites and use case tests. */
import type { Article } from '../articles/article.js';
import type { Category } from '../articles/category.js';
import type { Author } from '../authors/author.js';
import type { Comment } from '../comments/comment.js';
import { newId } from '../shared/ids.js';

const AT = new Date('2026-01-02T03:04:05.678Z');

export function authorRecord(tenantId: string, overrides: Partial<Author> = {}): Author {
  return { id: newId(), tenantId, name: 'Ada', email: null, bio: null, avatarUrl: null, createdAt: AT, updatedAt: AT, ...overrides };
}

export function categoryRecord(tenantId: string, overrides: Partial<Category> = {}): Category {
  return { id: newId(), tenantId, name: 'News', parentId: null, reactionsEnabled: true, createdAt: AT, updatedAt: AT, ...overrides };
}

export function articleRecord(tenantId: string, overrides: Partial<Article> = {}): Article {
  return {
    id: newId(),
    tenantId,
    title: 'Hello',
    content: '',
    authorId: null,
    categoryId: null,
    subCategoryId: null,
    reactionsEnabled: true,
    likes: 0,
    dislikes: 0,
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  };
}

export function commentRecord(tenantId: string, articleId: string, overrides: Partial<Comment> = {}): Comment {
  return {
    id: newId(),
    tenantId,
    articleId,
    content: 'Nice',
    authorName: null,
    userId: 'u1',
    guestId: null,
    status: 'pending',
    likes: 0,
    dislikes: 0,
    approvedAt: null,
    approvedBy: null,
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  };
}
