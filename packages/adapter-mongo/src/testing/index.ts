/**
 * Test support of the Mongo adapter (import `@cms/adapter-mongo/testing`, tests only): the
 * in-process collection double and the real-server hooks of the contract run.
 */
export * from './mingo-collection-double.js';
export * from './mingo-database-double.js';
export * from './index-coverage.js';
export * from './command-counter.js';
export * from './query-plans.js';
export * from './real-mongo-server.js';
export * from './gated-database.js';
