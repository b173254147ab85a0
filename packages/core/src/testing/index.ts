/**
 * `@cms/core/testing`: test support for services that embed core, with no dependency beyond core
 * itself (no assertion library, no test runner): caller builders, valid stored records, an
 * in-memory engagement fixture, `domainErrorOf`, `keyFragmentsIn`, seeded random cases, and the
 * gates a storage's calls wait at in a drawn race. The repository contract suites, which need
 * mocha and chai (and, for the race contracts, fast-check), are in `@cms/core/testing/contracts`.
 */
export * from './callers.js';
export * from './form-fixtures.js';
export * from './engagement-records.js';
export * from './notification-records.js';
export * from './engagement-fixture.js';
export * from './expect-domain-error.js';
export * from './key-fragments.js';
export * from './seeded-random.js';
export * from './race-gates.js';
