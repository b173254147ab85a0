/**
 * @cms/core — the framework-free domain of the CMS service: entities, ports (with their
 * injection tokens), use cases and in-memory adapters. Embed it with any transport and storage.
 */
export * from './shared/error-codes.js';
export * from './shared/domain-error.js';
export * from './shared/ids.js';
export * from './shared/clock.js';
export * from './shared/caller.js';
export * from './shared/trace-context.js';
export * from './shared/logger.js';
export * from './shared/languages.js';
export * from './shared/require-user.js';
export * from './shared/access.js';
export * from './shared/deferred.js';
export * from './shared/port-token.js';
export * from './shared/page-cursor.js';
export * from './shared/entity-tag.js';
export * from './shared/list-filters.js';
export * from './shared/conditional-update.js';

export * from './tenancy/tenant.js';
export * from './tenancy/tenancy.ports.js';
export * from './tenancy/api-key-secret.js';
export * from './tenancy/authenticate-api-key.use-case.js';
export * from './tenancy/manage-tenants.use-case.js';

export * from './captcha/captcha.ports.js';
export * from './notifications/notification.ports.js';
export * from './notifications/notification-delivery.ports.js';
export * from './notifications/render-notification.js';
export * from './notifications/dispatch-notifications.use-case.js';
export * from './notifications/dispatch-loop.js';
export * from './notifications/notification-dispatcher.js';

export * from './dashboard/dashboard-config.js';
export * from './dashboard/dashboard.ports.js';
export * from './dashboard/normalize-dashboard-config.js';
export * from './dashboard/save-dashboard-config.use-case.js';
export * from './dashboard/get-dashboard-config.use-case.js';

export * from './repurpose/repurpose-template.js';
export * from './repurpose/repurpose.ports.js';
export * from './repurpose/get-repurpose-template.use-case.js';
export * from './repurpose/update-repurpose-template.use-case.js';

export * from './ai/translation.ports.js';
export * from './ai/ai-usage.ports.js';
export * from './ai/ai-quota.js';
export * from './ai/translate-text.use-case.js';
export * from './ai/get-ai-usage.use-case.js';
export * from './forms/form.js';
export * from './forms/submission.js';
export * from './forms/forms.ports.js';
export * from './forms/create-form-input.js';
export * from './forms/normalize-form-input.js';
export * from './forms/form-public-view.js';
export * from './forms/validate-submission-values.js';
export * from './forms/submission-notification-jobs.js';
export * from './forms/create-form.use-case.js';
export * from './forms/get-form.use-case.js';
export * from './forms/get-next-form.use-case.js';
export * from './forms/submit-form.use-case.js';
export * from './forms/get-submission.use-case.js';
export * from './forms/connect-relation.use-case.js';
export * from './forms/list-forms.use-case.js';
export * from './forms/get-form-by-slug.use-case.js';
export * from './forms/update-form.use-case.js';
export * from './forms/relation-holders.js';
export * from './forms/delete-form.use-case.js';
export * from './forms/delete-submission.use-case.js';
export * from './forms/disconnect-relation.use-case.js';
export * from './forms/export-submissions.use-case.js';
export * from './forms/list-submissions.use-case.js';
export * from './shared/input-rules.js';

export * from './reactions/reaction.js';
export * from './reactions/reactions.ports.js';
export * from './reactions/reaction-ledger.js';
export * from './reactions/recount-reactions.use-case.js';

export * from './guests/guests.ports.js';
export * from './guests/require-actor.js';
export * from './guests/admit-guest.use-case.js';

export * from './authors/author.js';
export * from './authors/authors.ports.js';
export * from './authors/create-author.use-case.js';
export * from './authors/get-author.use-case.js';
export * from './authors/delete-author.use-case.js';
export * from './authors/list-authors.use-case.js';
export * from './authors/author-input.js';
export * from './authors/update-author.use-case.js';

export * from './articles/category.js';
export * from './articles/article.js';
export * from './articles/articles.ports.js';
export * from './articles/article-reaction-gate.js';
export * from './articles/create-category.use-case.js';
export * from './articles/create-article.use-case.js';
export * from './articles/get-article.use-case.js';
export * from './articles/react-to-article.use-case.js';
export * from './articles/list-articles.use-case.js';
export * from './articles/list-categories.use-case.js';
export * from './articles/get-category.use-case.js';
export * from './articles/category-input.js';
export * from './articles/update-category.use-case.js';
export * from './articles/article-input.js';
export * from './articles/update-article.use-case.js';
export * from './articles/delete-article.use-case.js';
export * from './articles/delete-category.use-case.js';

export * from './comments/comment.js';
export * from './comments/comments.ports.js';
export * from './comments/create-comment.use-case.js';
export * from './comments/approve-comment.use-case.js';
export * from './comments/react-to-comment.use-case.js';
export * from './comments/get-comment-reaction-summary.use-case.js';
export * from './comments/list-comments.use-case.js';
export * from './comments/delete-comment.use-case.js';

export * from './memory/memory-tenancy.repository.js';
export * from './memory/memory-dashboard-config.repository.js';
export * from './memory/memory-repurpose-template.repository.js';
export * from './memory/memory-notification-outbox.js';
export * from './memory/memory-ai-usage-ledger.js';
export * from './memory/memory-form.repository.js';
export * from './memory/memory-submission.repository.js';
export * from './memory/memory-author.repository.js';
export * from './memory/memory-category.repository.js';
export * from './memory/memory-article.repository.js';
export * from './memory/memory-comment.repository.js';
export * from './memory/memory-reaction.repository.js';
export * from './memory/memory-guest-rate-limiter.js';

export * from './webhooks/webhook.js';
export * from './webhooks/webhooks.ports.js';
export * from './webhooks/webhook-events.js';
export * from './webhooks/sign-webhook.js';
export * from './webhooks/event-witness-reader.js';
export * from './webhooks/dispatch-webhooks.use-case.js';
export * from './webhooks/create-webhook.use-case.js';
export * from './webhooks/update-webhook.use-case.js';
export * from './webhooks/delete-webhook.use-case.js';
export * from './webhooks/read-webhooks.use-case.js';
export * from './memory/memory-webhook.repository.js';
export * from './memory/memory-webhook-delivery.outbox.js';
export * from './embedded/core-stores.js';
export * from './embedded/create-core.js';
