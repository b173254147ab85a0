import { articleRoutes, RouteModuleToken } from '@cms/adapter-koa';
import {
  AdmitGuest,
  ArticleRepositoryToken,
  AuthorRepositoryToken,
  CategoryRepositoryToken,
  CreateArticle,
  CreateCategory,
  GetArticle,
  ReactionRepositoryToken,
  ReactToArticle,
  type ArticleRepository,
  type AuthorRepository,
  type CategoryRepository,
  type Clock,
  type ReactionRepository,
} from '@cms/core';
import { ContainerModule } from 'inversify';
import { ServerTokens } from './server-tokens.js';

export const articlesModule = new ContainerModule(({ bind }) => {
  bind(CreateCategory).toResolvedValue(
    (categories: CategoryRepository, clock: Clock) => new CreateCategory(categories, clock),
    [CategoryRepositoryToken, ServerTokens.Clock],
  );
  bind(CreateArticle).toResolvedValue(
    (articles: ArticleRepository, categories: CategoryRepository, authors: AuthorRepository, clock: Clock) =>
      new CreateArticle(articles, categories, authors, clock),
    [ArticleRepositoryToken, CategoryRepositoryToken, AuthorRepositoryToken, ServerTokens.Clock],
  );
  bind(GetArticle).toResolvedValue((articles: ArticleRepository) => new GetArticle(articles), [ArticleRepositoryToken]);
  bind(ReactToArticle).toResolvedValue(
    (articles: ArticleRepository, categories: CategoryRepository, reactions: ReactionRepository, clock: Clock, admit: AdmitGuest) =>
      new ReactToArticle(articles, categories, reactions, clock, admit),
    [ArticleRepositoryToken, CategoryRepositoryToken, ReactionRepositoryToken, ServerTokens.Clock, AdmitGuest],
  );
  bind(RouteModuleToken).toResolvedValue(
    (createCategory: CreateCategory, createArticle: CreateArticle, getArticle: GetArticle, react: ReactToArticle) =>
      articleRoutes({ createCategory, createArticle, getArticle, react }),
    [CreateCategory, CreateArticle, GetArticle, ReactToArticle],
  );
});
