/**
 * Counts the storage commands an operation sends (issue 18 item 1, decision 0750): the driver's
 * command monitoring on a real server (`monitorCommands: true`, `commandStarted`), or the database
 * double's `onCommand`, which reports the same events, so both runs count the same thing.
 * Connection housekeeping (handshake, authentication, `ping`, session ends) is not a storage
 * command of an operation and is left out; a `getMore` is a round trip and is counted.
 */
import type { CommandStartedEvent, Document, MongoClient } from 'mongodb';
import type { DoubleCommandEvent } from './double-command-monitor.js';
import type { MingoDatabaseDouble } from './mingo-database-double.js';

const HOUSEKEEPING = new Set(['hello', 'ismaster', 'isMaster', 'ping', 'saslStart', 'saslContinue', 'endSessions', 'buildInfo', 'getParameter', 'setParameter', 'explain']);

/** One command as the count shows it: `find api_keys`, `insert form_submissions`, `findAndModify reactions`. */
export type CountedCommand = string;

export class CommandCounter {
  readonly #seen: CountedCommand[] = [];
  readonly #documents: Document[] = [];
  readonly #detach: () => void;

  private constructor(subscribe: (listener: (event: DoubleCommandEvent | CommandStartedEvent) => void) => () => void) {
    this.#detach = subscribe((event) => {
      if (HOUSEKEEPING.has(event.commandName)) return;
      const target = (event.command as Record<string, unknown>)[event.commandName];
      this.#seen.push(typeof target === 'string' ? `${event.commandName} ${target}` : event.commandName);
      this.#documents.push(event.command);
    });
  }

  /** Listens to a database double. */
  static onDouble(db: MingoDatabaseDouble): CommandCounter {
    return new CommandCounter((listener) => db.onCommand(listener));
  }

  /** Listens to a real client, which must have been created with `monitorCommands: true`. */
  static onClient(client: MongoClient): CommandCounter {
    return new CommandCounter((listener) => {
      client.on('commandStarted', listener);
      return () => client.off('commandStarted', listener);
    });
  }

  /** The commands seen since the last reset, sorted (concurrent commands have no fixed order). */
  commands(): CountedCommand[] {
    return [...this.#seen].sort();
  }

  /** The command documents seen since the last reset, in the order they were sent. */
  documents(): Document[] {
    return [...this.#documents];
  }

  /** Forgets what was seen, and returns it (sorted). */
  take(): CountedCommand[] {
    const seen = this.commands();
    this.#seen.length = 0;
    this.#documents.length = 0;
    return seen;
  }

  detach(): void {
    this.#detach();
  }
}
