/**
 * Test support for this package and for embedding services: the repository contract suites
 * (mocha + chai) that every storage adapter must pass, and caller builders.
 */
export * from './contracts/contract-fixture.js';
export * from './contracts/tenancy.contract.js';
export * from './contracts/dashboard-config.contract.js';
export * from './contracts/repurpose-template.contract.js';
export * from './contracts/ai-usage-ledger.contract.js';
export * from './contracts/form.contract.js';
export * from './contracts/submission.contract.js';
export * from './form-fixtures.js';
export * from './callers.js';
export * from './contracts/notification-outbox.contract.js';
export * from './engagement-records.js';
export * from './contracts/author.contract.js';
export * from './contracts/articles.contract.js';
export * from './contracts/comment.contract.js';
export * from './contracts/reaction.contract.js';
export * from './contracts/reaction-totals.contract.js';
export * from './contracts/guest-rate-limiter.contract.js';
export * from './engagement-fixture.js';
export * from './expect-domain-error.js';
export * from './contracts/webhooks.contract.js';
export * from './contracts/keyset-lists.contract.js';
export * from './contracts/conditional-updates.contract.js';
export * from './contracts/content-deletes.contract.js';
