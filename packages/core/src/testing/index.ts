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
