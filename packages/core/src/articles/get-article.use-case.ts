import type { Caller } from '../shared/caller.js';
import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { wellFormedIdOr } from '../shared/input-rules.js';
import { toArticleView, type ArticleView } from './article.js';
import type { ArticleRepository } from './articles.ports.js';

/** The record, by its id as the caller gave it (checked: a malformed one is refused). */
export interface GetArticleInput {
  readonly id: string;
}

/** Reads an article with its current reaction totals (one lookup, whatever the number of reactions). */
export class GetArticle {
  constructor(private readonly articles: ArticleRepository) {}

  async execute(caller: Caller, { id: articleId }: GetArticleInput): Promise<ArticleView> {
    const id = wellFormedIdOr(articleId, ErrorCodes.INVALID_ARTICLE_ID);
    const article = await this.articles.findById(caller.tenantId, id);
    if (!article) throw new DomainError(ErrorCodes.ARTICLE_NOT_FOUND, 'Article not found');
    return toArticleView(article);
  }
}
