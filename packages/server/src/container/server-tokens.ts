/** Tokens of what the composition root itself provides. */
export const ServerTokens = {
  Config: Symbol.for('cms/server/Config'),
  Clock: Symbol.for('cms/server/Clock'),
  Logger: Symbol.for('cms/server/Logger'),
  RequestLogger: Symbol.for('cms/server/RequestLogger'),
  Storage: Symbol.for('cms/server/Storage'),
  BearerVerifier: Symbol.for('cms/server/BearerVerifier'),
} as const;

/** The storage the container was built on: its probes and its shutdown. */
export interface StorageLifecycle {
  readonly kind: 'memory' | 'mongo';
  ready(): Promise<boolean>;
  close(): Promise<void>;
}
