/**
 * TEST SUPPORT — a database whose commands wait at a race gate (`@cms/core/testing`), so that
 * the race contracts of `@cms/core/testing/contracts` interleave racing use cases between the
 * commands of one repository method (a conditional update and its read on a miss, the two
 * `updateMany`s of a refile), not only between methods. Every command of the listed surface
 * waits: writes and `findOne` when called, `find` and `aggregate` when their cursor is read.
 */
import type { Document } from 'mongodb';
import { gatedCall, type RaceGate } from '@cms/core/testing';
import type { MongoCollection, MongoDatabase } from '../storage/mongo-database.js';

const COMMANDS = new Set(['insertOne', 'insertMany', 'findOne', 'findOneAndUpdate', 'updateOne', 'findOneAndDelete', 'updateMany', 'deleteMany']);
const CURSORS = new Set(['find', 'aggregate']);
const CURSOR_READS = new Set(['toArray', 'next']);

/** `db` with each collection's commands waiting at `gate` (index creation and pings call straight through). */
export function gatedDatabase(db: MongoDatabase, gate: RaceGate): MongoDatabase {
  return {
    collection: <T extends Document = Document>(name: string) => gatedCollection(db.collection<T>(name), name, gate),
    command: (command) => db.command(command),
  };
}

function gatedCollection<C extends object>(collection: C, name: string, gate: RaceGate): C {
  return new Proxy(collection, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (COMMANDS.has(property)) return (...args: unknown[]) => gatedCall(gate, `${name}.${property}`, async () => method.apply(target, args));
      if (CURSORS.has(property)) return (...args: unknown[]) => gatedCursor(method.apply(target, args) as object, `${name}.${property}`, gate);
      return value;
    },
  }) as C & MongoCollection;
}

/** A cursor whose reads wait at the gate; its builder methods (`sort`, `limit`, …) answer the gated cursor. */
function gatedCursor<K extends object>(cursor: K, label: string, gate: RaceGate): K {
  const gated: K = new Proxy(cursor, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (CURSOR_READS.has(property)) return (...args: unknown[]) => gatedCall(gate, label, async () => method.apply(target, args));
      return (...args: unknown[]) => {
        const answer = method.apply(target, args);
        return answer === target ? gated : answer;
      };
    },
  });
  return gated;
}
