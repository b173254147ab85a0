/**
 * Repurpose templates on MongoDB: one per tenant (index `tenant_unique`). The first read creates
 * the template with one upsert whose fields are all `$setOnInsert`, so racing first reads store
 * one template; a patch is one `$set` of dotted paths, so edits to different platforms both stay.
 * A patch under `If-Match` adds the template read, every member, to its filter: still one command.
 */
import {
  PLATFORMS,
  type PlatformTemplate,
  type RepurposeDefaults,
  type RepurposeTemplate,
  type RepurposeTemplateRepository,
  type TemplateChange,
} from '@cms/core';
import type { ObjectId } from 'mongodb';
import { retryUpsertOnDuplicateKey } from '../storage/duplicate-key.js';
import { memberwiseEqualities, type MemberwiseFilter } from '../storage/memberwise-filter.js';
import { Collections } from '../storage/mongo-collections.js';
import type { MongoCollection, MongoDatabase } from '../storage/mongo-database.js';

interface RepurposeTemplateDocument {
  _id: ObjectId;
  tenantId: string;
  defaults: RepurposeDefaults;
  platforms: RepurposeTemplate['platforms'];
  updatedBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A path segment that can only name a field: no operators, no nesting by stealth. */
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

export class MongoRepurposeTemplateRepository implements RepurposeTemplateRepository {
  readonly #templates: MongoCollection<RepurposeTemplateDocument>;

  constructor(db: MongoDatabase) {
    this.#templates = db.collection<RepurposeTemplateDocument>(Collections.repurposeTemplates);
  }

  async findOrCreate(candidate: RepurposeTemplate): Promise<RepurposeTemplate> {
    const document = await retryUpsertOnDuplicateKey(() =>
      this.#templates.findOneAndUpdate(
        { tenantId: candidate.tenantId },
        {
          $setOnInsert: {
            defaults: toDefaults(candidate.defaults),
            platforms: toPlatforms(candidate.platforms),
            updatedBy: candidate.updatedBy,
            createdAt: candidate.createdAt,
            updatedAt: candidate.updatedAt,
          },
        },
        { upsert: true, returnDocument: 'after' },
      ),
    );
    if (!document) throw new Error('repurpose template upsert returned no document');
    return toTemplate(document);
  }

  async find(tenantId: string): Promise<RepurposeTemplate | null> {
    const document = await this.#templates.findOne({ tenantId });
    return document ? toTemplate(document) : null;
  }

  async applyChanges(
    tenantId: string,
    changes: readonly TemplateChange[],
    audit: { updatedBy: string; updatedAt: Date },
    expected?: RepurposeTemplate,
  ): Promise<RepurposeTemplate | null> {
    const $set: Record<string, unknown> = { updatedBy: audit.updatedBy, updatedAt: audit.updatedAt };
    for (const { path, value } of changes) $set[dottedPath(path)] = value;
    const filter = expected === undefined ? { tenantId } : { tenantId, ...shownMembers(expected) };
    const document = await this.#templates.findOneAndUpdate(filter, { $set }, { returnDocument: 'after' });
    return document ? toTemplate(document) : null;
  }
}

/**
 * Every member a read of the template shows, as equalities: the stored template matches only
 * while it is still the one read. `updatedAt` alone would not do: a patch without `If-Match`
 * writes the clock's time without reading, which can equal the one read within a millisecond.
 * The groups are compared member by member, so the order the server keeps them in does not
 * matter (a `$set` of a member a document did not have yet puts it last).
 */
function shownMembers(template: RepurposeTemplate): MemberwiseFilter {
  const filter: MemberwiseFilter = { updatedBy: template.updatedBy, createdAt: template.createdAt, updatedAt: template.updatedAt };
  memberwiseEqualities('defaults', toDefaults(template.defaults), filter);
  return memberwiseEqualities('platforms', toPlatforms(template.platforms), filter);
}

function dottedPath(path: readonly string[]): string {
  const bad = path.find((segment) => !FIELD_NAME.test(segment));
  if (bad !== undefined) throw new Error(`template change path has an invalid segment "${bad}"`);
  return path.join('.');
}

function toTemplate(document: RepurposeTemplateDocument): RepurposeTemplate {
  return {
    tenantId: document.tenantId,
    defaults: toDefaults(document.defaults),
    platforms: toPlatforms(document.platforms),
    updatedBy: document.updatedBy ?? null,
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
  };
}

function toDefaults(defaults: RepurposeDefaults): RepurposeDefaults {
  return { language: defaults.language, tone: defaults.tone, length: defaults.length };
}

function toPlatforms(platforms: RepurposeTemplate['platforms']): RepurposeTemplate['platforms'] {
  const copy = {} as RepurposeTemplate['platforms'];
  for (const platform of PLATFORMS) copy[platform] = toPlatform(platforms[platform]);
  return copy;
}

function toPlatform(platform: PlatformTemplate): PlatformTemplate {
  return {
    tone: platform.tone,
    length: platform.length,
    ctaTemplate: platform.ctaTemplate,
    hashtagStyle: platform.hashtagStyle,
    maxHashtags: platform.maxHashtags,
  };
}
