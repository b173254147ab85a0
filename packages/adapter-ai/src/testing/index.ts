/** Test support for services that embed this adapter: a local chat-completions server. */
export * from './fake-chat-completions.server.js';
