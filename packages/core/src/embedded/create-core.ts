/**
 * The documented way to embed core without a container: `createCore` builds every use case
 * that needs only storage, a CAPTCHA verifier and a clock, wired as the service wires them
 * (docs/embedding.md). The guest rules, roles and validation live in the use cases, so an
 * embedding service gets the same answers as HTTP callers, as `DomainError` codes.
 *
 * Not built here (they need outbound providers): `TranslateText` and `GetAiUsage` (an AI
 * provider and quota), `DispatchNotifications` (mail and webhook channels). Construct them
 * directly with `stores` and your adapters.
 */
import { CreateArticle } from '../articles/create-article.use-case.js';
import { CreateCategory } from '../articles/create-category.use-case.js';
import { GetArticle } from '../articles/get-article.use-case.js';
import { ReactToArticle } from '../articles/react-to-article.use-case.js';
import { CreateAuthor } from '../authors/create-author.use-case.js';
import { DeleteAuthor } from '../authors/delete-author.use-case.js';
import { GetAuthor } from '../authors/get-author.use-case.js';
import { FALLBACK_CAPTCHA_PROVIDER, type CaptchaProvider, type CaptchaVerifier } from '../captcha/captcha.ports.js';
import { ApproveComment } from '../comments/approve-comment.use-case.js';
import { CreateComment } from '../comments/create-comment.use-case.js';
import { GetCommentReactionSummary } from '../comments/get-comment-reaction-summary.use-case.js';
import { ReactToComment } from '../comments/react-to-comment.use-case.js';
import { GetDashboardConfig } from '../dashboard/get-dashboard-config.use-case.js';
import { SaveDashboardConfig } from '../dashboard/save-dashboard-config.use-case.js';
import { ConnectRelation } from '../forms/connect-relation.use-case.js';
import { CreateForm } from '../forms/create-form.use-case.js';
import { GetForm } from '../forms/get-form.use-case.js';
import { GetNextForm } from '../forms/get-next-form.use-case.js';
import { GetSubmission } from '../forms/get-submission.use-case.js';
import { SubmitForm } from '../forms/submit-form.use-case.js';
import { AdmitGuest } from '../guests/admit-guest.use-case.js';
import { DEFAULT_GUEST_ENGAGEMENT_POLICY, type GuestEngagementPolicy } from '../guests/guests.ports.js';
import { RecountReactions } from '../reactions/recount-reactions.use-case.js';
import { GetRepurposeTemplate } from '../repurpose/get-repurpose-template.use-case.js';
import { UpdateRepurposeTemplate } from '../repurpose/update-repurpose-template.use-case.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { StaticLanguageCatalog, type LanguageCatalog } from '../shared/languages.js';
import { silentLogger, type Logger } from '../shared/logger.js';
import { AuthenticateApiKey } from '../tenancy/authenticate-api-key.use-case.js';
import { ManageTenants } from '../tenancy/manage-tenants.use-case.js';
import { memoryStores, type CoreStores, type MemoryStores } from './core-stores.js';

export interface CoreOptions<S extends CoreStores = MemoryStores> {
  /** Verifies guest and form CAPTCHA tokens (adapter-captcha's providers, or your own). Required: there is no safe default. */
  readonly captcha: CaptchaVerifier;
  /** Where records live; default a fresh embedded store (`memoryStores()`). */
  readonly stores?: S;
  /** The provider guest engagement uses, and a form gate's default; default `recaptcha`. */
  readonly captchaProvider?: CaptchaProvider;
  /** Guest writes per guest and tenant per window, and the lowest CAPTCHA score; default 30 per 600 s, 0.5. */
  readonly guestPolicy?: Partial<GuestEngagementPolicy>;
  /** The languages of localized texts; default `en, ar, fr, es, de` for every tenant. */
  readonly languages?: LanguageCatalog;
  readonly clock?: Clock;
  readonly logger?: Logger;
}

export function createCore<S extends CoreStores = MemoryStores>(options: CoreOptions<S>) {
  const stores = options.stores ?? (memoryStores() as CoreStores as S);
  const clock = options.clock ?? systemClock;
  const languages = options.languages ?? new StaticLanguageCatalog();
  const captchaPolicy = { defaultProvider: options.captchaProvider ?? FALLBACK_CAPTCHA_PROVIDER };
  const guestPolicy = { ...DEFAULT_GUEST_ENGAGEMENT_POLICY, ...options.guestPolicy };
  const { forms, submissions, articles, categories, comments, reactions, authors } = stores;
  const admitGuest = new AdmitGuest(options.captcha, captchaPolicy, stores.guestLimiter, guestPolicy, clock);
  return {
    stores,
    clock,
    tenancy: {
      manage: new ManageTenants(stores.tenants, stores.apiKeys, clock),
      authenticate: new AuthenticateApiKey(stores.apiKeys),
    },
    forms: {
      create: new CreateForm(forms, languages, captchaPolicy, clock),
      get: new GetForm(forms),
      getNext: new GetNextForm(forms),
      submit: new SubmitForm(forms, submissions, options.captcha, stores.outbox, clock, options.logger ?? silentLogger),
      getSubmission: new GetSubmission(submissions),
      connectRelation: new ConnectRelation(forms, submissions, clock),
    },
    authors: {
      create: new CreateAuthor(authors, clock),
      get: new GetAuthor(authors),
      remove: new DeleteAuthor(authors, articles),
    },
    articles: {
      createCategory: new CreateCategory(categories, clock),
      create: new CreateArticle(articles, categories, authors, clock),
      get: new GetArticle(articles),
      react: new ReactToArticle(articles, categories, reactions, clock, admitGuest),
    },
    comments: {
      create: new CreateComment(comments, articles, clock, admitGuest),
      approve: new ApproveComment(comments, clock),
      react: new ReactToComment(comments, articles, categories, reactions, clock, admitGuest),
      reactionSummary: new GetCommentReactionSummary(comments, reactions),
    },
    dashboard: { save: new SaveDashboardConfig(stores.dashboards, clock), get: new GetDashboardConfig(stores.dashboards) },
    repurpose: {
      get: new GetRepurposeTemplate(stores.repurposeTemplates, clock),
      update: new UpdateRepurposeTemplate(stores.repurposeTemplates, languages, clock),
    },
    guests: { admit: admitGuest },
    maintenance: { recountReactions: new RecountReactions(stores.tenants, reactions, articles, comments) },
  };
}

/** Everything `createCore` built. */
export type Core<S extends CoreStores = MemoryStores> = ReturnType<typeof createCore<S>>;
