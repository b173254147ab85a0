/**
 * Part of the TEST DOUBLE (mingo-collection-double.ts): the double's answer to the driver's
 * command monitoring (`monitorCommands: true`, `commandStarted`). Every collection the database
 * double hands out is wrapped here, so each call is reported as the one command the driver would
 * send for it, named as the driver names it (`find`, `insert`, `update`, `delete`,
 * `findAndModify`, `aggregate`, …), when the driver would send it (a cursor: when it is first read).
 * The same wrapper checks the command's filter and sort against the collection's declared indexes
 * (index-coverage.ts) and fails the call on a query no index serves.
 *
 * It is generic by method name: a method added to the double later is monitored and checked by
 * its row in METHODS, and a method without a row fails loudly instead of going uncounted.
 */
import type { Document } from 'mongodb';
import { hintNames, unservedPipeline, unservedQuery, type IndexShape, type SortSpec } from './index-coverage.js';

/** What a `commandStarted` listener receives, as far as the double reports it. */
export interface DoubleCommandEvent {
  readonly commandName: string;
  readonly databaseName: string;
  /** `{ <commandName>: <collection>, filter?, sort?, pipeline? }`, like the driver's command document. */
  readonly command: Document;
}

interface MethodRow {
  readonly command: string;
  /** Argument positions of the filter, the options (for `sort` and `hint`) and an aggregation pipeline. */
  readonly filter?: number;
  readonly options?: number;
  readonly pipeline?: number;
  /** Returns a cursor: the command is sent when the cursor is first read. */
  readonly cursor?: boolean;
}

/** The driver's `Collection` methods and the command each sends (countDocuments is an aggregation). */
const METHODS: Readonly<Record<string, MethodRow>> = {
  insertOne: { command: 'insert' },
  insertMany: { command: 'insert' },
  findOne: { command: 'find', filter: 0, options: 1 },
  find: { command: 'find', filter: 0, options: 1, cursor: true },
  findOneAndUpdate: { command: 'findAndModify', filter: 0, options: 2 },
  findOneAndReplace: { command: 'findAndModify', filter: 0, options: 2 },
  findOneAndDelete: { command: 'findAndModify', filter: 0, options: 1 },
  updateOne: { command: 'update', filter: 0 },
  updateMany: { command: 'update', filter: 0 },
  replaceOne: { command: 'update', filter: 0 },
  deleteOne: { command: 'delete', filter: 0 },
  deleteMany: { command: 'delete', filter: 0, options: 1 },
  countDocuments: { command: 'aggregate', filter: 0 },
  distinct: { command: 'distinct', filter: 1 },
  aggregate: { command: 'aggregate', pipeline: 0, cursor: true },
  estimatedDocumentCount: { command: 'count' },
  createIndex: { command: 'createIndexes' },
};

/** Cursor methods that send the command (the first of them does). */
const CURSOR_READS = new Set<PropertyKey>(['toArray', 'next', 'hasNext', 'tryNext', 'forEach', 'stream', Symbol.asyncIterator]);

export interface MonitorOptions {
  readonly databaseName: string;
  readonly collectionName: string;
  readonly indexes: () => readonly IndexShape[];
  readonly emit: (event: DoubleCommandEvent) => void;
  /** `enforce`: a query no index serves fails; `off`: it is reported only. */
  readonly indexCoverage: 'enforce' | 'off';
  readonly unserved: (message: string) => void;
}

export function monitorCollection<T extends object>(collection: T, options: MonitorOptions): T {
  const send = (row: MethodRow, args: readonly unknown[], sort: SortSpec | undefined): Error | undefined => {
    const filter = row.filter === undefined ? undefined : ((args[row.filter] as Document | undefined) ?? {});
    const pipeline = row.pipeline === undefined ? undefined : ((args[row.pipeline] as Document[] | undefined) ?? []);
    const hinted = row.options === undefined ? undefined : (args[row.options] as { hint?: string | Document } | undefined)?.hint;
    const command: Document = { [row.command]: options.collectionName };
    if (filter) command.filter = filter;
    if (sort) command.sort = sort;
    if (pipeline) command.pipeline = pipeline;
    if (hinted !== undefined) command.hint = hinted;
    options.emit({ commandName: row.command, databaseName: options.databaseName, command });
    // A hinted query is planned on that index alone: it must serve the query by itself.
    const indexes = hinted === undefined ? options.indexes() : options.indexes().filter((index) => hintNames(hinted, index));
    // A hint that names no index: the double refuses the call as the server does.
    if (indexes.length === 0) return undefined;
    const why = pipeline ? unservedPipeline(indexes, pipeline) : filter ? unservedQuery(indexes, filter, sort) : null;
    if (why === null) return undefined;
    const message = `${options.databaseName}.${options.collectionName} ${row.command}: ${why}`;
    options.unserved(message);
    // The hint goes on the thrown error only: `unservedQueries()` keeps the bare message.
    const hint = 'declare an index that serves it in INDEXES of adapter-mongo/src/storage/mongo-collections.ts (docs/extending-storage.md §4)';
    return options.indexCoverage === 'enforce' ? new Error(`MingoDatabaseDouble: ${message}; ${hint}`) : undefined;
  };
  return new Proxy(collection, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      const row = METHODS[property];
      if (!row) throw new Error(`The double's command monitor has no row for Collection.${property}: add it to METHODS (double-command-monitor.ts)`);
      return (...args: unknown[]) => {
        const sortOption = row.options === undefined ? undefined : ((args[row.options] as { sort?: SortSpec } | undefined)?.sort);
        if (row.cursor) return monitorCursor(value.apply(target, args) as object, sortOption, (sort) => send(row, args, sort));
        const refused = send(row, args, sortOption);
        return refused ? Promise.reject(refused) : value.apply(target, args);
      };
    },
  });
}

/** Reports the cursor's command on its first read, with the sort set by then. */
function monitorCursor<C extends object>(cursor: C, sort: SortSpec | undefined, send: (sort: SortSpec | undefined) => Error | undefined): C {
  let sent = false;
  let refused: Error | undefined;
  const proxy: C = new Proxy(cursor, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (property === 'sort') {
        return (spec: SortSpec) => {
          sort = spec;
          value.call(target, spec);
          return proxy;
        };
      }
      if (!CURSOR_READS.has(property)) {
        return (...args: unknown[]) => {
          const result = value.apply(target, args) as unknown;
          return result === target ? proxy : result;
        };
      }
      return (...args: unknown[]) => {
        if (!sent) {
          sent = true;
          refused = send(sort);
        }
        if (!refused) return value.apply(target, args);
        // Promise-returning reads reject; an iterator or a stream cannot, so it throws.
        if (property === Symbol.asyncIterator || property === 'stream') throw refused;
        return Promise.reject(refused);
      };
    },
  });
  return proxy;
}
