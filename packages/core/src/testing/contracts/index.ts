/**
 * `@cms/core/testing/contracts`: the repository contract suites every storage adapter must pass.
 * Each registers mocha tests (`describe`/`it` globals) that assert with `chai`, an optional peer
 * dependency of `@cms/core` needed by this entry only. The race contracts (`contentRacesContract`,
 * `formRacesContract`: use cases started together over your repositories, their calls let
 * through in orders fast-check draws) also need `fast-check`, another optional peer, loaded only
 * when they run. The crash contracts (`contentCrashesContract`, `formCrashesContract`) kill each
 * multi-step write at every gated call, restart, and retry it. The caller builders, record
 * fixtures and race gates are in `@cms/core/testing`,
 * which needs nothing beyond core.
 */
export * from './contract-fixture.js';
export * from './tenancy.contract.js';
export * from './dashboard-config.contract.js';
export * from './repurpose-template.contract.js';
export * from './ai-usage-ledger.contract.js';
export * from './form.contract.js';
export * from './submission.contract.js';
export * from './notification-outbox.contract.js';
export * from './author.contract.js';
export * from './articles.contract.js';
export * from './comment.contract.js';
export * from './reaction.contract.js';
export * from './reaction-totals.contract.js';
export * from './guest-rate-limiter.contract.js';
export * from './webhooks.contract.js';
export * from './keyset-lists.contract.js';
export * from './conditional-updates.contract.js';
export * from './content-deletes.contract.js';
export { contentCrashesContract, contentRacesContract, type ContentRaceStores } from './content-races.contract.js';
export { formCrashesContract, formRacesContract, type FormRaceStores } from './form-races.contract.js';
