/**
 * Every engagement use case wired on fresh in-memory adapters, for use case tests (here and in
 * embedding services). The CAPTCHA verifier accepts the tokens given, scored as given.
 */
import { CreateArticle } from '../articles/create-article.use-case.js';
import { CreateCategory } from '../articles/create-category.use-case.js';
import { GetArticle } from '../articles/get-article.use-case.js';
import { ReactToArticle } from '../articles/react-to-article.use-case.js';
import { CreateAuthor } from '../authors/create-author.use-case.js';
import { DeleteAuthor } from '../authors/delete-author.use-case.js';
import { GetAuthor } from '../authors/get-author.use-case.js';
import { StaticCaptchaVerifier, type CaptchaProvider } from '../captcha/captcha.ports.js';
import { ApproveComment } from '../comments/approve-comment.use-case.js';
import { CreateComment } from '../comments/create-comment.use-case.js';
import { GetCommentReactionSummary } from '../comments/get-comment-reaction-summary.use-case.js';
import { ReactToComment } from '../comments/react-to-comment.use-case.js';
import { AdmitGuest } from '../guests/admit-guest.use-case.js';
import { DEFAULT_GUEST_ENGAGEMENT_POLICY, type GuestEngagementPolicy } from '../guests/guests.ports.js';
import { MemoryArticleRepository } from '../memory/memory-article.repository.js';
import { MemoryAuthorRepository } from '../memory/memory-author.repository.js';
import { MemoryCategoryRepository } from '../memory/memory-category.repository.js';
import { MemoryCommentRepository } from '../memory/memory-comment.repository.js';
import { MemoryGuestRateLimiter } from '../memory/memory-guest-rate-limiter.js';
import { MemoryReactionRepository } from '../memory/memory-reaction.repository.js';
import { MemoryTenantRepository } from '../memory/memory-tenancy.repository.js';
import { RecountReactions } from '../reactions/recount-reactions.use-case.js';
import { ManualClock } from '../shared/clock.js';

export interface EngagementFixtureOptions {
  readonly policy?: Partial<GuestEngagementPolicy>;
  readonly captchaProvider?: CaptchaProvider;
  /** Tokens the CAPTCHA verifier accepts, with an optional score. Default: `token` (no score). */
  readonly acceptedTokens?: ReadonlyMap<string, number | undefined>;
}

export function memoryEngagement(options: EngagementFixtureOptions = {}) {
  const clock = new ManualClock('2026-03-04T05:06:07.890Z');
  const tenants = new MemoryTenantRepository();
  const authors = new MemoryAuthorRepository();
  const categories = new MemoryCategoryRepository();
  const articles = new MemoryArticleRepository();
  const comments = new MemoryCommentRepository();
  const reactions = new MemoryReactionRepository();
  const limiter = new MemoryGuestRateLimiter();
  const captcha = new StaticCaptchaVerifier(options.acceptedTokens ?? new Map([['token', undefined]]));
  const policy = { ...DEFAULT_GUEST_ENGAGEMENT_POLICY, ...options.policy };
  const admitGuest = new AdmitGuest(captcha, { defaultProvider: options.captchaProvider ?? 'recaptcha' }, limiter, policy, clock);
  return {
    clock,
    captcha,
    repositories: { tenants, authors, categories, articles, comments, reactions, limiter },
    createAuthor: new CreateAuthor(authors, clock),
    getAuthor: new GetAuthor(authors),
    deleteAuthor: new DeleteAuthor(authors, articles),
    createCategory: new CreateCategory(categories, clock),
    createArticle: new CreateArticle(articles, categories, authors, clock),
    getArticle: new GetArticle(articles),
    reactToArticle: new ReactToArticle(articles, categories, reactions, clock, admitGuest),
    createComment: new CreateComment(comments, articles, clock, admitGuest),
    approveComment: new ApproveComment(comments, clock),
    reactToComment: new ReactToComment(comments, articles, categories, reactions, clock, admitGuest),
    commentSummary: new GetCommentReactionSummary(comments, reactions),
    admitGuest,
    recount: new RecountReactions(tenants, reactions, articles, comments),
  };
}

export type MemoryEngagement = ReturnType<typeof memoryEngagement>;
