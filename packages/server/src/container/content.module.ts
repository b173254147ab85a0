/**
 * Managing content (CONTRACT §6): lists, single reads by other keys, updates, deletes, relation disconnect, and the routes that go with them, over the storage
 * ports and the one cursor signer of the service.
 */
import { contentDeleteRoutes, contentListRoutes, contentReadRoutes, contentUpdateRoutes, RouteModuleToken } from '@cms/adapter-koa';
import {
  ArticleRepositoryToken,
  CaptchaPolicyToken,
  DeleteArticle,
  DeleteCategory,
  DeleteComment,
  DeleteForm,
  DeleteSubmission,
  DisconnectRelation,
  ExportSubmissions,
  NotificationOutboxToken,
  ReactionRepositoryToken,
  type NotificationOutbox,
  type ReactionRepository,
  LanguageCatalogToken,
  UpdateArticle,
  UpdateAuthor,
  UpdateCategory,
  UpdateForm,
  type CaptchaPolicy,
  type Clock,
  type LanguageCatalog,
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
  type WebhookEventRecorder,
  WebhookEventRecorderToken,
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
  bind(ExportSubmissions).toResolvedValue(
    (forms: FormRepository, submissions: SubmissionRepository) => new ExportSubmissions(forms, submissions),
    [FormRepositoryToken, SubmissionRepositoryToken],
  );
  bind(RouteModuleToken).toResolvedValue(
    (
      forms: ListForms,
      submissions: ListSubmissions,
      articles: ListArticles,
      categories: ListCategories,
      authors: ListAuthors,
      comments: ListComments,
      exportSubmissions: ExportSubmissions,
    ) => contentListRoutes({ forms, submissions, articles, categories, authors, comments, exportSubmissions }),
    [ListForms, ListSubmissions, ListArticles, ListCategories, ListAuthors, ListComments, ExportSubmissions],
  );
  bind(GetFormBySlug).toResolvedValue((forms: FormRepository) => new GetFormBySlug(forms), [FormRepositoryToken]);
  bind(GetCategory).toResolvedValue((categories: CategoryRepository) => new GetCategory(categories), [CategoryRepositoryToken]);
  bind(RouteModuleToken).toResolvedValue(
    (formBySlug: GetFormBySlug, category: GetCategory) => contentReadRoutes({ formBySlug, category }),
    [GetFormBySlug, GetCategory],
  );
  bind(UpdateForm).toResolvedValue(
    (forms: FormRepository, languages: LanguageCatalog, captcha: CaptchaPolicy, clock: Clock, events: WebhookEventRecorder) =>
      new UpdateForm(forms, languages, captcha, clock, events),
    [FormRepositoryToken, LanguageCatalogToken, CaptchaPolicyToken, ServerTokens.Clock, WebhookEventRecorderToken],
  );
  bind(UpdateArticle).toResolvedValue(
    (articles: ArticleRepository, categories: CategoryRepository, authors: AuthorRepository, clock: Clock, events: WebhookEventRecorder) =>
      new UpdateArticle(articles, categories, authors, clock, events),
    [ArticleRepositoryToken, CategoryRepositoryToken, AuthorRepositoryToken, ServerTokens.Clock, WebhookEventRecorderToken],
  );
  bind(UpdateCategory).toResolvedValue(
    (categories: CategoryRepository, articles: ArticleRepository, clock: Clock) => new UpdateCategory(categories, articles, clock),
    [CategoryRepositoryToken, ArticleRepositoryToken, ServerTokens.Clock],
  );
  bind(UpdateAuthor).toResolvedValue((authors: AuthorRepository, clock: Clock) => new UpdateAuthor(authors, clock), [AuthorRepositoryToken, ServerTokens.Clock]);
  bind(RouteModuleToken).toResolvedValue(
    (form: UpdateForm, article: UpdateArticle, category: UpdateCategory, author: UpdateAuthor) => contentUpdateRoutes({ form, article, category, author }),
    [UpdateForm, UpdateArticle, UpdateCategory, UpdateAuthor],
  );
  bind(DeleteForm).toResolvedValue(
    (forms: FormRepository, submissions: SubmissionRepository, outbox: NotificationOutbox, clock: Clock, events: WebhookEventRecorder) =>
      new DeleteForm(forms, submissions, outbox, clock, events),
    [FormRepositoryToken, SubmissionRepositoryToken, NotificationOutboxToken, ServerTokens.Clock, WebhookEventRecorderToken],
  );
  bind(DeleteSubmission).toResolvedValue(
    (forms: FormRepository, submissions: SubmissionRepository, outbox: NotificationOutbox, events: WebhookEventRecorder) =>
      new DeleteSubmission(forms, submissions, outbox, events),
    [FormRepositoryToken, SubmissionRepositoryToken, NotificationOutboxToken, WebhookEventRecorderToken],
  );
  bind(DeleteArticle).toResolvedValue(
    (articles: ArticleRepository, comments: CommentRepository, reactions: ReactionRepository, events: WebhookEventRecorder) =>
      new DeleteArticle(articles, comments, reactions, events),
    [ArticleRepositoryToken, CommentRepositoryToken, ReactionRepositoryToken, WebhookEventRecorderToken],
  );
  bind(DeleteCategory).toResolvedValue(
    (categories: CategoryRepository, articles: ArticleRepository) => new DeleteCategory(categories, articles),
    [CategoryRepositoryToken, ArticleRepositoryToken],
  );
  bind(DeleteComment).toResolvedValue(
    (comments: CommentRepository, reactions: ReactionRepository, events: WebhookEventRecorder) => new DeleteComment(comments, reactions, events),
    [CommentRepositoryToken, ReactionRepositoryToken, WebhookEventRecorderToken],
  );
  bind(DisconnectRelation).toResolvedValue(
    (forms: FormRepository, submissions: SubmissionRepository, clock: Clock, events: WebhookEventRecorder) => new DisconnectRelation(forms, submissions, clock, events),
    [FormRepositoryToken, SubmissionRepositoryToken, ServerTokens.Clock, WebhookEventRecorderToken],
  );
  bind(RouteModuleToken).toResolvedValue(
    (
      form: DeleteForm,
      submission: DeleteSubmission,
      article: DeleteArticle,
      category: DeleteCategory,
      comment: DeleteComment,
      disconnect: DisconnectRelation,
    ) => contentDeleteRoutes({ form, submission, article, category, comment, disconnect }),
    [DeleteForm, DeleteSubmission, DeleteArticle, DeleteCategory, DeleteComment, DisconnectRelation],
  );
});
