/** @cms/server — the composition root, for embedding the whole service or starting it in tests. */
export * from './config/env-reader.js';
export * from './config/service-config.js';
export * from './container/build-container.js';
export * from './container/server-tokens.js';
export * from './service.js';
export * from './maintenance/recount-reactions.command.js';
