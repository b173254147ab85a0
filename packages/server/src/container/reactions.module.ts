/** Reaction maintenance: the recount of stored totals against the reaction records. */
import {
  ArticleRepositoryToken,
  CommentRepositoryToken,
  ReactionRepositoryToken,
  RecountReactions,
  TenantRepositoryToken,
  type ArticleRepository,
  type CommentRepository,
  type ReactionRepository,
  type TenantRepository,
} from '@cms/core';
import { ContainerModule } from 'inversify';

export const reactionsModule = new ContainerModule(({ bind }) => {
  bind(RecountReactions).toResolvedValue(
    (tenants: TenantRepository, reactions: ReactionRepository, articles: ArticleRepository, comments: CommentRepository) =>
      new RecountReactions(tenants, reactions, articles, comments),
    [TenantRepositoryToken, ReactionRepositoryToken, ArticleRepositoryToken, CommentRepositoryToken],
  );
});
