/**
 * TEST DOUBLE — the driver's `Db` over collection doubles (mingo-collection-double.ts), for tests
 * only: collections are created on first use, every command is reported as the driver's command
 * monitoring would report it, and every query is checked against the declared indexes.
 */
import type { Document } from 'mongodb';
import type { MongoCollection, MongoDatabase } from '../storage/mongo-database.js';
import { monitorCollection, type DoubleCommandEvent } from './double-command-monitor.js';
import { MingoCollectionDouble } from './mingo-collection-double.js';

export type { DoubleCommandEvent };

/** Lets other pending operations run first, as a round trip to a server would. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Options of the database double; by default every query must be served by a declared index. */
export interface MingoDatabaseDoubleOptions {
  /** `enforce` (default): a query no declared index serves fails (decision 0751); `off`: it is only recorded. */
  readonly indexCoverage?: 'enforce' | 'off';
}

/**
 * A database of collection doubles, created on first use like MongoDB's collections. Each
 * collection it hands out reports its commands to `onCommand` listeners, as the driver's
 * `commandStarted` events (double-command-monitor.ts), and checks its queries against the
 * declared indexes.
 */
export class MingoDatabaseDouble implements MongoDatabase {
  readonly #collections = new Map<string, { double: MingoCollectionDouble; monitored: MingoCollectionDouble }>();
  readonly #listeners = new Set<(event: DoubleCommandEvent) => void>();
  readonly #unserved: string[] = [];
  readonly #indexCoverage: 'enforce' | 'off';

  constructor(
    readonly databaseName = 'cms_double',
    options: MingoDatabaseDoubleOptions = {},
  ) {
    this.#indexCoverage = options.indexCoverage ?? 'enforce';
  }

  collection<T extends Document = Document>(name: string): MongoCollection<T> {
    // The double implements the listed methods with the options the repositories use; the cast
    // is the one place where it claims the driver's full signatures.
    return this.#entry(name).monitored as unknown as MongoCollection<T>;
  }

  /** The double itself, for test inspection (`documents()`, `indexes()`); its calls are not monitored. */
  collectionDouble(name: string): MingoCollectionDouble {
    return this.#entry(name).double;
  }

  /** Test inspection: the names of the collections asked for so far. */
  collectionNames(): string[] {
    return [...this.#collections.keys()];
  }

  /** Calls `listener` with every command sent through `collection()`, like `commandStarted`; returns the unsubscribe. */
  onCommand(listener: (event: DoubleCommandEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Every query so far that no declared index served, as sentences (also when coverage is `off`). */
  unservedQueries(): string[] {
    return [...this.#unserved];
  }

  async command(command: Document): Promise<Document> {
    this.#emit({ commandName: Object.keys(command)[0] ?? '', databaseName: this.databaseName, command });
    await turn();
    if (Object.keys(command).length === 1 && command.ping === 1) return { ok: 1 };
    throw new Error(`MingoDatabaseDouble.command supports only { ping: 1 }, got ${JSON.stringify(command)}`);
  }

  #entry(name: string) {
    let entry = this.#collections.get(name);
    if (!entry) {
      const double = new MingoCollectionDouble(`${this.databaseName}.${name}`);
      const monitored = monitorCollection(double, {
        databaseName: this.databaseName,
        collectionName: name,
        indexes: () => double.indexes(),
        emit: (event) => this.#emit(event),
        indexCoverage: this.#indexCoverage,
        unserved: (message) => this.#unserved.push(message),
      });
      entry = { double, monitored };
      this.#collections.set(name, entry);
    }
    return entry;
  }

  #emit(event: DoubleCommandEvent): void {
    for (const listener of this.#listeners) listener(event);
  }
}
