/**
 * Managing content (CONTRACT §6): lists, single reads by other keys, and the routes that go with them, over the storage
 * ports and the one cursor signer of the service.
 */
import { contentListRoutes, contentReadRoutes, RouteModuleToken } from '@cms/adapter-koa';
import {
  ArticleRepositoryToken,
  AuthorRepositoryToken,
  CategoryRepositoryToken,
  CommentRepositoryToken,
  FormRepositoryToken,
  GetCategory,
  GetFormBySlug,
  ListArticles,
  ListAuthors,
  ListCategories,
  ListComments,
  ListForms,
  ListSubmissions,
  PageCursors,
  PageCursorsToken,
  SubmissionRepositoryToken,
  type ArticleRepository,
  type AuthorRepository,
  type CategoryRepository,
  type CommentRepository,
  type FormRepository,
  type SubmissionRepository,
} from '@cms/core';
import { ContainerModule } from 'inversify';
import type { ServiceConfig } from '../config/service-config.js';
import { ServerTokens } from './server-tokens.js';

export const contentModule = new ContainerModule(({ bind }) => {
  bind(PageCursorsToken).toResolvedValue((config: ServiceConfig) => new PageCursors(config.auth.cursorSecret), [ServerTokens.Config]);
  bind(ListForms).toResolvedValue((forms: FormRepository, cursors: PageCursors) => new ListForms(forms, cursors), [FormRepositoryToken, PageCursorsToken]);
  bind(ListSubmissions).toResolvedValue(
    (forms: FormRepository, submissions: SubmissionRepository, cursors: PageCursors) => new ListSubmissions(forms, submissions, cursors),
    [FormRepositoryToken, SubmissionRepositoryToken, PageCursorsToken],
  );
  bind(ListArticles).toResolvedValue(
    (articles: ArticleRepository, cursors: PageCursors) => new ListArticles(articles, cursors),
    [ArticleRepositoryToken, PageCursorsToken],
  );
  bind(ListCategories).toResolvedValue(
    (categories: CategoryRepository, cursors: PageCursors) => new ListCategories(categories, cursors),
    [CategoryRepositoryToken, PageCursorsToken],
  );
  bind(ListAuthors).toResolvedValue((authors: AuthorRepository, cursors: PageCursors) => new ListAuthors(authors, cursors), [AuthorRepositoryToken, PageCursorsToken]);
  bind(ListComments).toResolvedValue(
    (articles: ArticleRepository, comments: CommentRepository, cursors: PageCursors) => new ListComments(articles, comments, cursors),
    [ArticleRepositoryToken, CommentRepositoryToken, PageCursorsToken],
  );
  bind(RouteModuleToken).toResolvedValue(
    (forms: ListForms, submissions: ListSubmissions, articles: ListArticles, categories: ListCategories, authors: ListAuthors, comments: ListComments) =>
      contentListRoutes({ forms, submissions, articles, categories, authors, comments }),
    [ListForms, ListSubmissions, ListArticles, ListCategories, ListAuthors, ListComments],
  );
  bind(GetFormBySlug).toResolvedValue((forms: FormRepository) => new GetFormBySlug(forms), [FormRepositoryToken]);
  bind(GetCategory).toResolvedValue((categories: CategoryRepository) => new GetCategory(categories), [CategoryRepositoryToken]);
  bind(RouteModuleToken).toResolvedValue(
    (formBySlug: GetFormBySlug, category: GetCategory) => contentReadRoutes({ formBySlug, category }),
    [GetFormBySlug, GetCategory],
  );
});
