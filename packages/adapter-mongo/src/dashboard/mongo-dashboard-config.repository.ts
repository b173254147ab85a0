/**
 * Dashboard configurations on MongoDB: one document per (tenant, user), kept unique by the
 * `tenant_user_unique` index and written by one upsert, so racing saves end with one whole record.
 * A save under `If-Match` is one command too: an update whose filter holds the layout read, or,
 * when none was stored, an insert the unique index refuses once another save stored one.
 */
import type { DashboardConfig, DashboardConfigRecord, DashboardConfigRepository, DashboardSlot } from '@cms/core';
import type { ObjectId } from 'mongodb';
import { isDuplicateKeyError, retryUpsertOnDuplicateKey } from '../storage/duplicate-key.js';
import { memberwiseEqualities } from '../storage/memberwise-filter.js';
import { Collections } from '../storage/mongo-collections.js';
import type { MongoCollection, MongoDatabase } from '../storage/mongo-database.js';

interface DashboardConfigDocument {
  _id: ObjectId;
  tenantId: string;
  userId: string;
  config: DashboardConfig;
  updatedBy: string;
  updatedAt: Date;
}

const UNIQUE_INDEX = 'tenant_user_unique';

export class MongoDashboardConfigRepository implements DashboardConfigRepository {
  readonly #configs: MongoCollection<DashboardConfigDocument>;

  constructor(db: MongoDatabase) {
    this.#configs = db.collection<DashboardConfigDocument>(Collections.dashboardConfigs);
  }

  async upsert(record: DashboardConfigRecord): Promise<DashboardConfigRecord> {
    const document = await retryUpsertOnDuplicateKey(() =>
      this.#configs.findOneAndUpdate(
        { tenantId: record.tenantId, userId: record.userId },
        { $set: { config: toConfig(record.config), updatedBy: record.updatedBy, updatedAt: record.updatedAt } },
        { upsert: true, returnDocument: 'after' },
      ),
    );
    if (!document) throw new Error('dashboard config upsert returned no document');
    return toRecord(document);
  }

  async replaceIf(record: DashboardConfigRecord, expected: DashboardConfigRecord | null): Promise<DashboardConfigRecord | null> {
    const fields = { config: toConfig(record.config), updatedBy: record.updatedBy, updatedAt: record.updatedAt };
    if (expected === null) {
      try {
        await this.#configs.insertOne({ tenantId: record.tenantId, userId: record.userId, ...fields } as DashboardConfigDocument);
      } catch (error) {
        if (isDuplicateKeyError(error, UNIQUE_INDEX)) return null;
        throw error;
      }
      return { tenantId: record.tenantId, userId: record.userId, ...fields };
    }
    // The layout read, member by member: a stored layout whose members are in another order is
    // still the one read.
    const document = await this.#configs.findOneAndUpdate(
      memberwiseEqualities('config', toConfig(expected.config), { tenantId: record.tenantId, userId: record.userId }),
      { $set: fields },
      { returnDocument: 'after' },
    );
    return document ? toRecord(document) : null;
  }

  async find(tenantId: string, userId: string): Promise<DashboardConfigRecord | null> {
    const document = await this.#configs.findOne({ tenantId, userId });
    return document ? toRecord(document) : null;
  }
}

function toRecord(document: DashboardConfigDocument): DashboardConfigRecord {
  return {
    tenantId: document.tenantId,
    userId: document.userId,
    config: toConfig(document.config),
    updatedBy: document.updatedBy,
    updatedAt: document.updatedAt,
  };
}

/** Copies exactly the fields of the layout, in both directions: nothing else is stored or returned. */
function toConfig(config: DashboardConfig): DashboardConfig {
  return { version: config.version, templateId: config.templateId, slots: config.slots.map(toSlot) };
}

function toSlot(slot: DashboardSlot): DashboardSlot {
  return { id: slot.id, type: slot.type, enabled: slot.enabled, span: slot.span, settings: { range: slot.settings.range } };
}
