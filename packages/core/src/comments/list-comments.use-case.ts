/**
 * §6.1 `GET /articles/{id}/comments`: an article's comments, newest first. Order: 400
 * `INVALID_ARTICLE_ID` → 404 `ARTICLE_NOT_FOUND` → a status other than `approved` (the default)
 * needs a bearer token with role admin or editor, else 403 `FORBIDDEN` (also without a token:
 * the contract names only 403 here).
 */
import type { ArticleRepository } from '../articles/articles.ports.js';
import type { Caller } from '../shared/caller.js';
import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { wellFormedIdOr } from '../shared/input-rules.js';
import { choiceFilter } from '../shared/list-filters.js';
import { listScope, readPage, type NestedPageInput, type PageCursors } from '../shared/page-cursor.js';
import { toCommentView, type CommentView } from './comment.js';
import type { CommentRepository } from './comments.ports.js';

export const COMMENT_LIST_STATUSES = ['approved', 'pending', 'all'] as const;
/** Who may see comments that are not approved (moderators). */
export const COMMENT_MODERATOR_ROLES = ['admin', 'editor'] as const;

export interface ListCommentsInput extends NestedPageInput {
  readonly articleId: string;
  readonly status?: unknown;
}

export class ListComments {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly comments: CommentRepository,
    private readonly cursors: PageCursors,
  ) {}

  async execute(caller: Caller, input: ListCommentsInput): Promise<{ comments: CommentView[]; nextCursor: string | null }> {
    const id = wellFormedIdOr(input.articleId, ErrorCodes.INVALID_ARTICLE_ID);
    if (!(await this.articles.findById(caller.tenantId, id))) throw new DomainError(ErrorCodes.ARTICLE_NOT_FOUND, 'Article not found');
    input.checkQuery?.();
    const status = choiceFilter(input.status, 'status', COMMENT_LIST_STATUSES) ?? 'approved';
    const user = caller.user;
    if (status !== 'approved' && !(user?.verified === true && (COMMENT_MODERATOR_ROLES as readonly string[]).includes(user.role))) {
      throw new DomainError(ErrorCodes.FORBIDDEN, 'Forbidden');
    }
    const scope = listScope('comments', caller.tenantId, { articleId: id, status });
    const stored = status === 'all' ? undefined : status;
    const page = await readPage(this.cursors, scope, input, (query) => this.comments.listByArticle(caller.tenantId, id, stored, query));
    return { comments: page.items.map(toCommentView), nextCursor: page.nextCursor };
  }
}
