/** Structured logging as a port: one JSON object per event, never secrets. */
export interface Logger {
  /** Detail for diagnosing (`LOG_LEVEL=debug`); optional, so a logger may leave it out. */
  debug?(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
