/**
 * Tenants on MongoDB. The tenant id is the document `_id`, so "one tenant per id" is the `_id`
 * index itself: a second insert fails with a duplicate key and answers false.
 */
import type { Tenant, TenantRepository } from '@cms/core';
import { Collections } from '../storage/mongo-collections.js';
import type { MongoCollection, MongoDatabase } from '../storage/mongo-database.js';
import { isDuplicateKeyError } from '../storage/duplicate-key.js';

interface TenantDocument {
  _id: string;
  name: string;
  aiTokenLimitMonthly: number | null;
  adminEmails: string[];
  createdAt: Date;
}

export class MongoTenantRepository implements TenantRepository {
  readonly #tenants: MongoCollection<TenantDocument>;

  constructor(db: MongoDatabase) {
    this.#tenants = db.collection<TenantDocument>(Collections.tenants);
  }

  async insert(tenant: Tenant): Promise<boolean> {
    try {
      await this.#tenants.insertOne(toDocument(tenant));
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  async findById(id: string): Promise<Tenant | null> {
    const document = await this.#tenants.findOne({ _id: id });
    return document ? toTenant(document) : null;
  }

  async list(): Promise<Tenant[]> {
    const documents = await this.#tenants.find({}, { sort: { _id: 1 } }).toArray();
    return documents.map(toTenant);
  }

  async setAiTokenLimit(id: string, limit: number | null): Promise<boolean> {
    const result = await this.#tenants.updateOne({ _id: id }, { $set: { aiTokenLimitMonthly: limit } });
    return result.matchedCount === 1;
  }

  async setAdminEmails(id: string, emails: readonly string[]): Promise<boolean> {
    const result = await this.#tenants.updateOne({ _id: id }, { $set: { adminEmails: [...emails] } });
    return result.matchedCount === 1;
  }
}

function toDocument(tenant: Tenant): TenantDocument {
  return {
    _id: tenant.id,
    name: tenant.name,
    aiTokenLimitMonthly: tenant.aiTokenLimitMonthly,
    adminEmails: [...tenant.adminEmails],
    createdAt: tenant.createdAt,
  };
}

function toTenant(document: TenantDocument): Tenant {
  return {
    id: document._id,
    name: document.name,
    aiTokenLimitMonthly: document.aiTokenLimitMonthly ?? null,
    adminEmails: [...(document.adminEmails ?? [])],
    createdAt: document.createdAt,
  };
}
