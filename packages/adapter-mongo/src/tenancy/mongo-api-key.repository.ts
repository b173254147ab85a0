/**
 * API keys on MongoDB: only the SHA-256 of a key is stored, unique across all tenants (index
 * `hash_unique`), because a request's key is resolved before its tenant is known.
 */
import type { ApiKey, ApiKeyRepository } from '@cms/core';
import type { ObjectId } from 'mongodb';
import { isDuplicateKeyError } from '../storage/duplicate-key.js';
import { Collections } from '../storage/mongo-collections.js';
import type { MongoCollection, MongoDatabase } from '../storage/mongo-database.js';
import { fromObjectId, parseObjectId, toObjectId } from '../storage/object-ids.js';

interface ApiKeyDocument {
  _id: ObjectId;
  tenantId: string;
  name: string;
  hash: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export class MongoApiKeyRepository implements ApiKeyRepository {
  readonly #keys: MongoCollection<ApiKeyDocument>;

  constructor(db: MongoDatabase) {
    this.#keys = db.collection<ApiKeyDocument>(Collections.apiKeys);
  }

  async insert(key: ApiKey): Promise<void> {
    try {
      await this.#keys.insertOne(toDocument(key));
    } catch (error) {
      // Same failure as the memory adapter, without the driver's error type.
      if (isDuplicateKeyError(error)) throw new Error('duplicate API key');
      throw error;
    }
  }

  async findByHash(hash: string): Promise<ApiKey | null> {
    const document = await this.#keys.findOne({ hash });
    return document ? toApiKey(document) : null;
  }

  async listByTenant(tenantId: string): Promise<ApiKey[]> {
    const documents = await this.#keys.find({ tenantId }, { sort: { createdAt: 1, _id: 1 } }).toArray();
    return documents.map(toApiKey);
  }

  async revoke(id: string, at: Date): Promise<boolean> {
    const _id = parseObjectId(id);
    if (!_id) return false;
    // Only the first revocation sets the time; a repeat finds the key already revoked.
    const result = await this.#keys.updateOne({ _id, revokedAt: null }, { $set: { revokedAt: at } });
    if (result.matchedCount === 1) return true;
    return (await this.#keys.findOne({ _id })) !== null;
  }
}

/**
 * Removes the `prefix` that versions before decision 0789 stored beside the hash: the key's first
 * 10 characters, in clear. One `updateMany` over every key through `hash_unique` (every hash is a
 * string, so `$gte: ''` takes them all; the collection is small); once no document holds the
 * field it changes nothing, so it is safe to run at every start-up.
 */
export async function removeClearKeyPrefixes(db: MongoDatabase): Promise<void> {
  await db.collection(Collections.apiKeys).updateMany({ hash: { $gte: '' }, prefix: { $exists: true } }, { $unset: { prefix: '' } });
}

function toDocument(key: ApiKey): ApiKeyDocument {
  return {
    _id: toObjectId(key.id),
    tenantId: key.tenantId,
    name: key.name,
    hash: key.hash,
    createdAt: key.createdAt,
    revokedAt: key.revokedAt,
  };
}

/** Names each field it reads: a `prefix` left by a version before decision 0789 is never read. */
function toApiKey(document: ApiKeyDocument): ApiKey {
  return {
    id: fromObjectId(document._id),
    tenantId: document.tenantId,
    name: document.name,
    hash: document.hash,
    createdAt: document.createdAt,
    revokedAt: document.revokedAt ?? null,
  };
}
