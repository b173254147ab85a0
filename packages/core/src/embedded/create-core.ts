/**
 * The documented way to embed core without a container: `createCore` builds every use case
 * that needs only storage, a CAPTCHA verifier and a clock, wired as the service wires them
 * (docs/embedding.md). The guest rules, roles and validation live in the use cases, so an
 * embedding service gets the same answers as HTTP callers, as `DomainError` codes.
 *
 * Notifications: `notifications.dispatcher` sends the jobs submissions queue, once started, on
 * the senders given in `options.notifications` (a channel without one skips its jobs).
 * Webhooks (CONTRACT §7): with `options.webhooks`, every write records its event with the change
 * and `webhooks` holds the management use cases and the delivery dispatcher; without it, no
 * write records an event and `webhooks` is undefined.
 * Not built here (they need outbound providers): `TranslateText` and `GetAiUsage` (an AI
 * provider and quota). Construct them directly with `stores` and your adapters.
 */
import { checkedInput, checkedInputs } from './checked-inputs.js';
import { CreateArticle } from '../articles/create-article.use-case.js';
import { CreateCategory } from '../articles/create-category.use-case.js';
import { DeleteArticle } from '../articles/delete-article.use-case.js';
import { DeleteCategory } from '../articles/delete-category.use-case.js';
import { GetArticle } from '../articles/get-article.use-case.js';
import { GetCategory } from '../articles/get-category.use-case.js';
import { ListArticles } from '../articles/list-articles.use-case.js';
import { ListCategories } from '../articles/list-categories.use-case.js';
import { ReactToArticle } from '../articles/react-to-article.use-case.js';
import { UpdateArticle } from '../articles/update-article.use-case.js';
import { UpdateCategory } from '../articles/update-category.use-case.js';
import { CreateAuthor } from '../authors/create-author.use-case.js';
import { DeleteAuthor } from '../authors/delete-author.use-case.js';
import { GetAuthor } from '../authors/get-author.use-case.js';
import { ListAuthors } from '../authors/list-authors.use-case.js';
import { UpdateAuthor } from '../authors/update-author.use-case.js';
import { CAPTCHA_PROVIDERS, FALLBACK_CAPTCHA_PROVIDER, type CaptchaProvider, type CaptchaVerifier } from '../captcha/captcha.ports.js';
import { ApproveComment } from '../comments/approve-comment.use-case.js';
import { CreateComment } from '../comments/create-comment.use-case.js';
import { DeleteComment } from '../comments/delete-comment.use-case.js';
import { GetCommentReactionSummary } from '../comments/get-comment-reaction-summary.use-case.js';
import { ListComments } from '../comments/list-comments.use-case.js';
import { ReactToComment } from '../comments/react-to-comment.use-case.js';
import { GetDashboardConfig } from '../dashboard/get-dashboard-config.use-case.js';
import { SaveDashboardConfig } from '../dashboard/save-dashboard-config.use-case.js';
import { ConnectRelation } from '../forms/connect-relation.use-case.js';
import { CreateForm } from '../forms/create-form.use-case.js';
import { DeleteForm } from '../forms/delete-form.use-case.js';
import { DeleteSubmission } from '../forms/delete-submission.use-case.js';
import { DisconnectRelation } from '../forms/disconnect-relation.use-case.js';
import { ExportSubmissions } from '../forms/export-submissions.use-case.js';
import { GetFormBySlug } from '../forms/get-form-by-slug.use-case.js';
import { GetForm } from '../forms/get-form.use-case.js';
import { GetNextForm } from '../forms/get-next-form.use-case.js';
import { GetSubmission } from '../forms/get-submission.use-case.js';
import { ListForms } from '../forms/list-forms.use-case.js';
import { ListSubmissions } from '../forms/list-submissions.use-case.js';
import { SubmitForm } from '../forms/submit-form.use-case.js';
import { UpdateForm } from '../forms/update-form.use-case.js';
import { AdmitGuest, checkedGuestPolicy } from '../guests/admit-guest.use-case.js';
import { DEFAULT_GUEST_ENGAGEMENT_POLICY, type GuestEngagementPolicy } from '../guests/guests.ports.js';
import { notificationDispatcher, type NotificationDispatchOptions } from '../notifications/notification-dispatcher.js';
import { RecountReactions } from '../reactions/recount-reactions.use-case.js';
import { GetRepurposeTemplate } from '../repurpose/get-repurpose-template.use-case.js';
import { UpdateRepurposeTemplate } from '../repurpose/update-repurpose-template.use-case.js';
import type { BackgroundWork } from '../shared/background-work.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { definedOnly } from '../shared/defined-only.js';
import { StaticLanguageCatalog, type LanguageCatalog } from '../shared/languages.js';
import { PageCursors } from '../shared/page-cursor.js';
import { silentLogger, type Logger } from '../shared/logger.js';
import { AuthenticateApiKey } from '../tenancy/authenticate-api-key.use-case.js';
import { ManageTenants } from '../tenancy/manage-tenants.use-case.js';
import { NO_WEBHOOK_EVENTS } from '../webhooks/webhook-events.js';
import { webhookParts, type WebhookOptions, type WebhookParts } from '../webhooks/webhook-parts.js';
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
  /**
   * Signs list cursors (`nextCursor`); every process that reads another's cursors must share it.
   * Default: a random secret, so cursors hold for this process only.
   */
  readonly cursorSecret?: string;
  /** Mail and push senders for submission notifications, and the dispatcher's pace (interval, batch size, retries, how long finished jobs are kept). */
  readonly notifications?: NotificationDispatchOptions;
  /**
   * Webhooks (CONTRACT §7): the sender and URL guard deliveries go through, and the dispatcher's
   * pace. Needs `stores.webhooks` and `stores.webhookDeliveries` (the embedded store has both).
   * Default: off, no write records an event.
   */
  readonly webhooks?: WebhookOptions;
  readonly clock?: Clock;
  readonly logger?: Logger;
  /**
   * Where work a use case does not await runs (a submit's notification enqueue). Pass a
   * `TrackedWork` and await its `settled()` before closing your store on shutdown; default: untracked.
   */
  readonly backgroundWork?: BackgroundWork;
}

/** The stores every core needs (`webhooks` and `webhookDeliveries` only with `options.webhooks`). */
const REQUIRED_STORES = [
  'tenants',
  'apiKeys',
  'forms',
  'submissions',
  'outbox',
  'authors',
  'categories',
  'articles',
  'comments',
  'reactions',
  'guestLimiter',
  'dashboards',
  'repurposeTemplates',
] as const satisfies ReadonlyArray<keyof CoreStores>;

/**
 * Refuses, by name, what a core cannot work without: a store missing (JavaScript callers get no
 * compiler to tell them; a missing outbox answered submits and lost their notifications) and the
 * CAPTCHA verifier (the first guest write threw a bare TypeError). And an option given in a shape
 * that would fail later, after state changed: a provider name no form could be given (its forms
 * then refused every token), webhooks without their sender or URL guard (no safe default for
 * either, decision 0794), background work that cannot start a task (a submit stored, then threw).
 */
function checkedOptions<S extends CoreStores>(options: CoreOptions<S>, stores: S): void {
  if (typeof options !== 'object' || options === null) throw new TypeError('createCore: options must be an object');
  const missing = REQUIRED_STORES.filter((name) => typeof stores[name] !== 'object' || stores[name] === null);
  if (missing.length > 0) throw new TypeError(`createCore: stores.${missing.join(', stores.')} missing (CoreStores names every store a core needs)`);
  if (typeof options.captcha?.verify !== 'function') throw new TypeError('createCore: options.captcha is required (a CaptchaVerifier: adapter-captcha, or StaticCaptchaVerifier)');
  const { captchaProvider, webhooks, backgroundWork, cursorSecret } = options;
  if (captchaProvider !== undefined && captchaProvider !== null && !(CAPTCHA_PROVIDERS as readonly unknown[]).includes(captchaProvider)) {
    throw new TypeError(`createCore: options.captchaProvider must be one of ${CAPTCHA_PROVIDERS.join(', ')}`);
  }
  // Absent, null or false (`enabled && {…}`): off. Anything else must be whole.
  if (webhooks !== undefined && webhooks !== null && (webhooks as unknown) !== false && (typeof webhooks.sender?.send !== 'function' || typeof webhooks.urlGuard?.isAllowed !== 'function')) {
    throw new TypeError('createCore: options.webhooks needs a sender (WebhookSender) and a urlGuard (WebhookUrlGuard): there is no safe default for either');
  }
  if (backgroundWork !== undefined && typeof backgroundWork?.start !== 'function') throw new TypeError('createCore: options.backgroundWork must be a BackgroundWork (a start(task) method)');
  if (cursorSecret !== undefined && (typeof cursorSecret !== 'string' || cursorSecret === '')) throw new TypeError('createCore: options.cursorSecret must be a text that is not empty');
}

/**
 * `W`, the type of `options.webhooks` as inferred from the call, types `core.webhooks`: there when
 * webhooks were given, so code that passed them needs no check; `WebhookParts | undefined` when
 * they may or may not have been (and when the type arguments are written out).
 */
export function createCore<S extends CoreStores = MemoryStores, W extends WebhookOptions | undefined = WebhookOptions | undefined>(options: CoreOptions<S> & { readonly webhooks?: W }) {
  const stores = options?.stores ?? (memoryStores() as CoreStores as S);
  checkedOptions(options, stores);
  const clock = options.clock ?? systemClock;
  const languages = options.languages ?? new StaticLanguageCatalog();
  const captchaPolicy = { defaultProvider: options.captchaProvider ?? FALLBACK_CAPTCHA_PROVIDER };
  // A member given as `undefined` keeps its default, as one left out does.
  const guestPolicy = { ...DEFAULT_GUEST_ENGAGEMENT_POLICY, ...definedOnly(options.guestPolicy ?? {}) };
  const { forms, submissions, articles, categories, comments, reactions, authors } = stores;
  const admitGuest = new AdmitGuest(options.captcha, captchaPolicy, stores.guestLimiter, checkedGuestPolicy(guestPolicy, 'createCore'), clock);
  const cursors = new PageCursors(options.cursorSecret);
  const logger = options.logger ?? silentLogger;
  const webhooks = options.webhooks ? webhooksOf(stores, options.webhooks, cursors, clock, logger) : undefined;
  // The caller's use cases only: `dispatch` and `events` are the service's own parts.
  if (webhooks) for (const useCase of [webhooks.create, webhooks.list, webhooks.get, webhooks.update, webhooks.remove, webhooks.deliveries]) checkedInput(useCase);
  const events = webhooks?.events ?? NO_WEBHOOK_EVENTS;
  return {
    stores,
    clock,
    tenancy: {
      manage: new ManageTenants(stores.tenants, stores.apiKeys, clock),
      authenticate: new AuthenticateApiKey(stores.apiKeys),
    },
    forms: checkedInputs({
      create: new CreateForm(forms, languages, captchaPolicy, clock, events),
      get: new GetForm(forms),
      getNext: new GetNextForm(forms),
      submit: new SubmitForm(forms, submissions, options.captcha, stores.outbox, clock, logger, events, options.backgroundWork),
      getSubmission: new GetSubmission(submissions),
      connectRelation: new ConnectRelation(forms, submissions, clock, events),
      getBySlug: new GetFormBySlug(forms),
      list: new ListForms(forms, cursors),
      update: new UpdateForm(forms, languages, captchaPolicy, clock, events),
      remove: new DeleteForm(forms, submissions, stores.outbox, clock, events),
      listSubmissions: new ListSubmissions(forms, submissions, cursors),
      exportSubmissions: new ExportSubmissions(forms, submissions),
      removeSubmission: new DeleteSubmission(forms, submissions, stores.outbox, events),
      disconnectRelation: new DisconnectRelation(forms, submissions, clock, events),
    }),
    authors: checkedInputs({
      create: new CreateAuthor(authors, clock),
      get: new GetAuthor(authors),
      remove: new DeleteAuthor(authors, articles),
      list: new ListAuthors(authors, cursors),
      update: new UpdateAuthor(authors, clock),
    }),
    articles: checkedInputs({
      createCategory: new CreateCategory(categories, articles, clock),
      create: new CreateArticle(articles, categories, authors, clock, events),
      get: new GetArticle(articles),
      react: new ReactToArticle(articles, categories, reactions, clock, admitGuest, events),
      list: new ListArticles(articles, cursors),
      update: new UpdateArticle(articles, categories, authors, clock, events),
      remove: new DeleteArticle(articles, comments, reactions, events),
      getCategory: new GetCategory(categories),
      listCategories: new ListCategories(categories, cursors),
      updateCategory: new UpdateCategory(categories, articles, clock),
      removeCategory: new DeleteCategory(categories, articles),
    }),
    comments: checkedInputs({
      create: new CreateComment(comments, articles, clock, admitGuest, events),
      approve: new ApproveComment(comments, clock, events),
      react: new ReactToComment(comments, articles, categories, reactions, clock, admitGuest),
      reactionSummary: new GetCommentReactionSummary(comments, reactions),
      list: new ListComments(articles, comments, cursors),
      remove: new DeleteComment(comments, reactions, events),
    }),
    dashboard: checkedInputs({ save: new SaveDashboardConfig(stores.dashboards, clock), get: new GetDashboardConfig(stores.dashboards) }),
    repurpose: checkedInputs({
      get: new GetRepurposeTemplate(stores.repurposeTemplates, clock),
      update: new UpdateRepurposeTemplate(stores.repurposeTemplates, languages, clock),
    }),
    guests: checkedInputs({ admit: admitGuest }),
    /** Present when `options.webhooks` was given. */
    webhooks: webhooks as W extends WebhookOptions ? WebhookParts : undefined,
    notifications: notificationDispatcher({ outbox: stores.outbox, tenants: stores.tenants, forms, submissions, clock, logger }, options.notifications),
    maintenance: { recountReactions: new RecountReactions(stores.tenants, reactions, articles, comments) },
  };
}

function webhooksOf(stores: CoreStores, options: WebhookOptions, cursors: PageCursors, clock: Clock, logger: Logger): WebhookParts {
  const { webhooks, webhookDeliveries: deliveries } = stores;
  if (!webhooks || !deliveries) throw new TypeError('createCore: options.webhooks needs stores.webhooks and stores.webhookDeliveries');
  return webhookParts({ ...stores, webhooks, deliveries, cursors, clock, logger }, options);
}

/** Everything `createCore` built. */
export type Core<S extends CoreStores = MemoryStores, W extends WebhookOptions | undefined = WebhookOptions | undefined> = ReturnType<typeof createCore<S, W>>;
