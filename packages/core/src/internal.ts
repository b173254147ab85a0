/**
 * @cms/core/internal — NOT PUBLIC API. Everything the core's modules export, including the
 * helpers the public entry (`@cms/core`) leaves out: validation and input rules, page and cursor
 * helpers, reaction arithmetic, webhook signing, API-key hashing, notification rendering. For the
 * workspace's own packages (adapters, server) only; it may change in any release without notice
 * and is not covered by the API report (packages/core/etc/core.api.md). Embedders use `@cms/core`.
 */
export * from './index.js';

export { errorText } from './shared/error-text.js';
export { boundedText, type AnswerBody } from './shared/bounded-answer.js';
export { describeIssue, issuesError, limitError, validationError } from './shared/domain-error.js';
export * from './shared/ids.js';
export { actorKey } from './shared/caller.js';
export { firstPath, MALFORMED_TEXT, malformedTextPath } from './shared/well-formed-text.js';
export { childSpanOf, logFieldsOf, parseTraceparent, traceparentOf } from './shared/trace-context.js';
export * from './shared/require-user.js';
export { checkAccess } from './shared/access.js';
export { settleInput } from './shared/deferred.js';
export { PAGE_LIMIT_PATTERN, compareNewestFirst, invalidCursor, listScope, pageLimit, readPage } from './shared/page-cursor.js';
export { checkIfMatch, nextUpdatedAt, noneMatchHolds, preconditionFailed } from './shared/entity-tag.js';
export { choiceFilter, dropAbsent, flagFilter, idFilter, scopeText } from './shared/list-filters.js';
export { conditionalUpdate, patchOf, patched, type UpdateSteps } from './shared/conditional-update.js';
export * from './tenancy/api-key-secret.js';
export { DIGEST_MEMO_SIZE } from './tenancy/authenticate-api-key.use-case.js';
export * from './notifications/render-notification.js';
export { retryDelayMs } from './notifications/dispatch-notifications.use-case.js';
export { defaultSlotIdAt, defaultSlots, defaultSpanAt, defaultTypeAt } from './dashboard/dashboard-config.js';
export * from './dashboard/normalize-dashboard-config.js';
export { aiNotConfigured, aiProviderFailed, aiProviderTimedOut } from './ai/translation.ports.js';
export { checkLedgerArguments, USAGE_MONTH_PATTERN, monthlyTokenLimitOf, nextMonthStart, tokenUsageOf, usageMonthOf } from './ai/ai-quota.js';
export { fieldsOf, findField } from './forms/form.js';
export * from './forms/normalize-form-input.js';
export * from './forms/validate-submission-values.js';
export * from './forms/submission-notification-jobs.js';
export { findRelationField } from './forms/connect-relation.use-case.js';
export { FORM_INPUT_KEYS } from './forms/update-form.use-case.js';
export * from './forms/relation-holders.js';
export { csvRow } from './forms/submission-export-text.js';
export * from './shared/input-rules.js';
export { addTotals, isZeroDelta, reactionChoice, reactionDelta, reactionTypeOf, subtractTotals, visibleTotals } from './reactions/reaction.js';
export * from './reactions/reaction-ledger.js';
export * from './guests/require-actor.js';
export { AUTHOR_INPUT_KEYS, authorFields } from './authors/author-input.js';
export * from './articles/article-reaction-gate.js';
export { findCategoryOrThrow } from './articles/get-category.use-case.js';
export { CATEGORY_INPUT_KEYS, categoryFields, hasChildren } from './articles/category-input.js';
export { ARTICLE_INPUT_KEYS, articleFields, type ArticleReferences } from './articles/article-input.js';
export { COMMENT_LIST_STATUSES, COMMENT_MODERATOR_ROLES } from './comments/list-comments.use-case.js';
export { RECENT_FORMS } from './memory/memory-form.repository.js';
export { WEBHOOK_URL_PATTERN, newWebhookSecret, subscribesTo } from './webhooks/webhook.js';
export { DELIVERY_LOG_SIZE, stagedDeliveryState } from './webhooks/webhooks.ports.js';
export { eventPayload } from './webhooks/webhook-events.js';
export * from './webhooks/sign-webhook.js';
export { newestFirst } from './memory/memory-webhook.repository.js';
