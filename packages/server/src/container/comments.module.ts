import { commentRoutes, RouteModuleToken } from '@cms/adapter-koa';
import {
  AdmitGuest,
  ApproveComment,
  ArticleRepositoryToken,
  CategoryRepositoryToken,
  CommentRepositoryToken,
  CreateComment,
  GetCommentReactionSummary,
  ReactionRepositoryToken,
  ReactToComment,
  type ArticleRepository,
  type CategoryRepository,
  type Clock,
  type CommentRepository,
  type ReactionRepository,
  WebhookEventRecorderToken,
  type WebhookEventRecorder,
} from '@cms/core';
import { ContainerModule } from 'inversify';
import { ServerTokens } from './server-tokens.js';

export const commentsModule = new ContainerModule(({ bind }) => {
  bind(CreateComment).toResolvedValue(
    (comments: CommentRepository, articles: ArticleRepository, clock: Clock, admit: AdmitGuest, events: WebhookEventRecorder) =>
      new CreateComment(comments, articles, clock, admit, events),
    [CommentRepositoryToken, ArticleRepositoryToken, ServerTokens.Clock, AdmitGuest, WebhookEventRecorderToken],
  );
  bind(ApproveComment).toResolvedValue(
    (comments: CommentRepository, clock: Clock, events: WebhookEventRecorder) => new ApproveComment(comments, clock, events),
    [CommentRepositoryToken, ServerTokens.Clock, WebhookEventRecorderToken],
  );
  bind(ReactToComment).toResolvedValue(
    (
      comments: CommentRepository,
      articles: ArticleRepository,
      categories: CategoryRepository,
      reactions: ReactionRepository,
      clock: Clock,
      admit: AdmitGuest,
    ) => new ReactToComment(comments, articles, categories, reactions, clock, admit),
    [CommentRepositoryToken, ArticleRepositoryToken, CategoryRepositoryToken, ReactionRepositoryToken, ServerTokens.Clock, AdmitGuest],
  );
  bind(GetCommentReactionSummary).toResolvedValue(
    (comments: CommentRepository, reactions: ReactionRepository) => new GetCommentReactionSummary(comments, reactions),
    [CommentRepositoryToken, ReactionRepositoryToken],
  );
  bind(RouteModuleToken).toResolvedValue(
    (create: CreateComment, approve: ApproveComment, react: ReactToComment, summary: GetCommentReactionSummary) =>
      commentRoutes({ create, approve, react, summary }),
    [CreateComment, ApproveComment, ReactToComment, GetCommentReactionSummary],
  );
});
