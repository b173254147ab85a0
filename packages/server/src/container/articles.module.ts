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
  WebhookEventRecorderToken,
  type WebhookEventRecorder,
} from '@cms/core';
import { ContainerModule } from 'inversify';
import { ServerTokens } from './server-tokens.js';

export const articlesModule = new ContainerModule(({ bind }) => {
  bind(CreateCategory).toResolvedValue(
    (categories: CategoryRepository, articles: ArticleRepository, clock: Clock) => new CreateCategory(categories, articles, clock),
    [CategoryRepositoryToken, ArticleRepositoryToken, ServerTokens.Clock],
  );
  bind(CreateArticle).toResolvedValue(
    (articles: ArticleRepository, categories: CategoryRepository, authors: AuthorRepository, clock: Clock, events: WebhookEventRecorder) =>
      new CreateArticle(articles, categories, authors, clock, events),
    [ArticleRepositoryToken, CategoryRepositoryToken, AuthorRepositoryToken, ServerTokens.Clock, WebhookEventRecorderToken],
  );
  bind(GetArticle).toResolvedValue((articles: ArticleRepository) => new GetArticle(articles), [ArticleRepositoryToken]);
  bind(ReactToArticle).toResolvedValue(
    (articles: ArticleRepository, categories: CategoryRepository, reactions: ReactionRepository, clock: Clock, admit: AdmitGuest, events: WebhookEventRecorder) =>
      new ReactToArticle(articles, categories, reactions, clock, admit, events),
    [ArticleRepositoryToken, CategoryRepositoryToken, ReactionRepositoryToken, ServerTokens.Clock, AdmitGuest, WebhookEventRecorderToken],
  );
  bind(RouteModuleToken).toResolvedValue(
    (createCategory: CreateCategory, createArticle: CreateArticle, getArticle: GetArticle, react: ReactToArticle) =>
      articleRoutes({ createCategory, createArticle, getArticle, react }),
    [CreateCategory, CreateArticle, GetArticle, ReactToArticle],
  );
});
