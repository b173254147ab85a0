/**
 * @cms/core — the framework-free domain of the CMS service: entities, ports (with their
 * injection tokens), use cases and in-memory adapters. Embed it with any transport and storage.
 */
export * from './shared/error-codes.js';
export * from './shared/domain-error.js';
export * from './shared/ids.js';
export * from './shared/clock.js';
export * from './shared/caller.js';
export * from './shared/logger.js';
export * from './shared/languages.js';
export * from './shared/require-user.js';
export * from './shared/port-token.js';

export * from './tenancy/tenant.js';
export * from './tenancy/tenancy.ports.js';
export * from './tenancy/api-key-secret.js';
export * from './tenancy/authenticate-api-key.use-case.js';
export * from './tenancy/manage-tenants.use-case.js';

export * from './captcha/captcha.ports.js';
export * from './notifications/notification.ports.js';

export * from './dashboard/dashboard-config.js';
export * from './dashboard/dashboard.ports.js';
export * from './dashboard/normalize-dashboard-config.js';
export * from './dashboard/save-dashboard-config.use-case.js';
export * from './dashboard/get-dashboard-config.use-case.js';

export * from './repurpose/repurpose-template.js';
export * from './repurpose/repurpose.ports.js';
export * from './repurpose/get-repurpose-template.use-case.js';
export * from './repurpose/update-repurpose-template.use-case.js';

export * from './memory/copy-record.js';
export * from './memory/memory-tenancy.repository.js';
export * from './memory/memory-dashboard-config.repository.js';
export * from './memory/memory-repurpose-template.repository.js';
export * from './memory/memory-notification-outbox.js';
