/**
 * Part of the TEST DOUBLE (mingo-collection-double.ts): errors shaped like the driver's
 * MongoServerError, as far as callers can observe them (name, code, message, key details).
 */
import { BSON } from 'mongodb';

/** What the driver throws on a duplicate key, as far as callers can observe it. */
export class DuplicateKeyDoubleError extends Error {
  readonly code = 11000;
  readonly codeName = 'DuplicateKey';
  readonly errmsg: string;

  constructor(
    namespace: string,
    index: string,
    readonly keyPattern: Readonly<Record<string, unknown>>,
    readonly keyValue: Readonly<Record<string, unknown>>,
  ) {
    super(`E11000 duplicate key error collection: ${namespace} index: ${index} dup key: ${BSON.EJSON.stringify(keyValue)}`);
    this.name = 'MongoServerError';
    this.errmsg = this.message;
  }
}

/** A server error other than a duplicate key (conflicting update paths, immutable `_id`, …). */
export class ServerDoubleError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'MongoServerError';
  }
}

/** What the driver throws itself, before sending anything, on an argument it refuses (a document too large for a batch). */
export class DriverArgumentDoubleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MongoInvalidArgumentError';
  }
}
