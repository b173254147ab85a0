/**
 * Forms on MongoDB. A taken slug is decided by the unique index `tenant_slug_unique`
 * ({tenantId, slug}): `insert` is one `insertOne`, and a duplicate key on that index answers
 * false, so of racing creates with one slug exactly one is stored. An update (§6.3) is one
 * conditional `findOneAndUpdate`, under the same index. The relation fields that target a form, or
 * did before an update, are found through `tenant_relation_target` and `tenant_past_relation_target`
 * (decision 0767). The forms a form refers to (relation targets, flow) are
 * stored as ObjectIds, like its own `_id` (docs/decisions/0105-mongo-forms-and-submissions.md).
 */
import type {
  Form,
  FormCaptcha,
  FormField,
  FormFieldOption,
  FormListFilter,
  FormNotifications,
  FormRepository,
  FormSection,
  LocalizedText,
  PageQuery,
  RelationHolder,
} from '@cms/core';
import { RELATION_HISTORY_MAX } from '@cms/core';
import type { Filter, ObjectId } from 'mongodb';
import { isDuplicateKeyError } from '../storage/duplicate-key.js';
import { findPage } from '../storage/keyset-query.js';
import { Collections } from '../storage/mongo-collections.js';
import type { MongoCollection, MongoDatabase } from '../storage/mongo-database.js';
import { fromObjectId, parseObjectId, toObjectId } from '../storage/object-ids.js';

// The stored shapes are the domain's, with ObjectIds where a form refers to a form.
type FieldDocument = Omit<FormField, 'relation'> & {
  /** Only on `relation` fields. */
  relation?: { formId: ObjectId; multiple: boolean };
};

type SectionDocument = Omit<FormSection, 'fields'> & { fields: FieldDocument[] };

/** A relation field's name and target, as the form has or had it. */
interface RelationTargetDocument {
  fieldName: string;
  formId: ObjectId;
}

type FormDocument = Omit<Form, 'id' | 'sections' | 'flow'> & {
  _id: ObjectId;
  sections: SectionDocument[];
  flow: { nextFormId: ObjectId | null; previousFormId: ObjectId | null };
  /**
   * Every relation field name and target the form has had (`$addToSet` on each write): an update
   * that renames, retargets or drops a field leaves its ids in old submissions, and the cascades
   * of §6.4 must still find them (decision 0767). Absent on documents written before it existed.
   */
  relationTargets?: RelationTargetDocument[];
};

const SLUG_INDEX = 'tenant_slug_unique';

export class MongoFormRepository implements FormRepository {
  readonly #forms: MongoCollection<FormDocument>;

  constructor(db: MongoDatabase) {
    this.#forms = db.collection<FormDocument>(Collections.forms);
  }

  async insert(form: Form): Promise<boolean> {
    try {
      const document = toDocument(form);
      await this.#forms.insertOne({ ...document, relationTargets: relationTargetsOf(document.sections) });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error, SLUG_INDEX)) return false; // the unique index decided
      // A clash on `_id` is a bug, as in the memory adapter; never show the driver's error type.
      if (isDuplicateKeyError(error)) throw new Error(`duplicate form id ${form.id}`);
      throw error;
    }
  }

  async findById(tenantId: string, id: string): Promise<Form | null> {
    const _id = parseObjectId(id);
    if (!_id) return null;
    const document = await this.#forms.findOne({ _id, tenantId });
    return document ? toForm(document) : null;
  }

  /**
   * One conditional `findOneAndUpdate` (the `updatedAt` read is in the filter); a new slug that
   * another form holds is refused by `tenant_slug_unique`, as on insert.
   */
  async update(form: Form, expected: Date): Promise<'updated' | 'stale' | 'slugTaken' | 'relationHistoryFull'> {
    const { _id, tenantId, createdBy: _createdBy, createdAt: _createdAt, ...definition } = toDocument(form);
    const added = relationTargetsOf(definition.sections);
    const targets = { relationTargets: { $each: added } };
    // The history's size with the new fields, in the same atomic step (0767): a form with no
    // relation field added writes no $expr, the common PATCH unchanged.
    const history = added.length === 0 ? {} : { $expr: { $lte: [{ $size: { $setUnion: [{ $ifNull: ['$relationTargets', []] }, { $literal: added }] } }, RELATION_HISTORY_MAX] } };
    try {
      const before = await this.#forms.findOneAndUpdate({ _id, tenantId, updatedAt: expected, ...history }, { $set: definition, $addToSet: targets });
      if (!before) return added.length > 0 && (await this.#forms.findOne({ _id, tenantId, updatedAt: expected }, { projection: { _id: 1 } })) ? 'relationHistoryFull' : 'stale';
      // Written before `relationTargets` existed: the fields it had go in now (one more step, once).
      const earlier = before.relationTargets === undefined ? relationTargetsOf(before.sections) : [];
      if (earlier.length > 0) await this.#forms.updateOne({ _id, tenantId }, { $addToSet: { relationTargets: { $each: earlier } } });
      return 'updated';
    } catch (error) {
      if (isDuplicateKeyError(error, SLUG_INDEX)) return 'slugTaken';
      throw error;
    }
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const _id = parseObjectId(id);
    return _id !== null && (await this.#forms.findOneAndDelete({ _id, tenantId })) !== null;
  }

  /** Served by `tenant_slug_unique`. */
  async findBySlug(tenantId: string, slug: string): Promise<Form | null> {
    const document = await this.#forms.findOne({ tenantId, slug });
    return document ? toForm(document) : null;
  }

  /** One query on `_id`, reading ids only: form documents can be large. */
  async existingIds(tenantId: string, ids: readonly string[]): Promise<string[]> {
    const wanted = new Map<string, ObjectId>();
    for (const id of ids) {
      const _id = parseObjectId(id);
      if (_id) wanted.set(fromObjectId(_id), _id);
    }
    if (wanted.size === 0) return [];
    const found = await this.#forms.find<{ _id: ObjectId }>({ _id: { $in: [...wanted.values()] }, tenantId }, { projection: { _id: 1 } }).toArray();
    return found.map((document) => fromObjectId(document._id));
  }

  /** Served by `tenant_created`, `tenant_active_created`, `tenant_visibility_created` or `tenant_active_visibility_created`. */
  async list(tenantId: string, filter: FormListFilter, page: PageQuery): Promise<Form[]> {
    const query: Filter<FormDocument> = { tenantId };
    if (filter.isActive !== undefined) query.isActive = filter.isActive;
    if (filter.visibility !== undefined) query.visibility = filter.visibility;
    return (await findPage(this.#forms, query, page)).map(toForm);
  }

  /**
   * Served by `tenant_relation_target` and `tenant_past_relation_target` (multikey indexes on the
   * fields' targets, now and before); reads names and targets only.
   */
  async relationHoldersOf(tenantId: string, formId: string): Promise<RelationHolder[]> {
    const target = parseObjectId(formId);
    if (!target) return [];
    const holding = await this.#forms
      .find<Pick<FormDocument, '_id' | 'sections' | 'relationTargets'>>(
        { tenantId, $or: [{ 'sections.fields.relation.formId': target }, { 'relationTargets.formId': target }] } as Filter<FormDocument>,
        { projection: { _id: 1, 'sections.fields.name': 1, 'sections.fields.relation.formId': 1, relationTargets: 1 } },
      )
      .toArray();
    const holders: RelationHolder[] = [];
    for (const document of holding) {
      const formId = fromObjectId(document._id);
      const names = new Set<string>();
      for (const { fieldName, formId: targetId } of [...relationTargetsOf(document.sections), ...(document.relationTargets ?? [])]) {
        if (!targetId.equals(target) || names.has(fieldName)) continue;
        names.add(fieldName);
        holders.push({ formId, fieldName });
      }
    }
    return holders;
  }
}

function toDocument(form: Form): FormDocument {
  return {
    _id: toObjectId(form.id),
    tenantId: form.tenantId,
    slug: form.slug,
    title: texts(form.title),
    description: texts(form.description),
    submitButtonText: texts(form.submitButtonText),
    isActive: form.isActive,
    visibility: form.visibility,
    sections: form.sections.map((section) => ({
      title: texts(section.title),
      description: texts(section.description),
      fields: section.fields.map(toFieldDocument),
    })),
    captcha: toCaptcha(form.captcha),
    notifications: toNotifications(form.notifications),
    flow: { nextFormId: toOptionalObjectId(form.flow.nextFormId), previousFormId: toOptionalObjectId(form.flow.previousFormId) },
    createdBy: form.createdBy,
    createdAt: form.createdAt,
    updatedAt: form.updatedAt,
  };
}

/** The relation fields' names and targets, in form order. */
function relationTargetsOf(sections: readonly Pick<SectionDocument, 'fields'>[]): RelationTargetDocument[] {
  const targets: RelationTargetDocument[] = [];
  for (const section of sections) {
    for (const field of section.fields) if (field.relation) targets.push({ fieldName: field.name, formId: field.relation.formId });
  }
  return targets;
}

function toForm(document: FormDocument): Form {
  return {
    id: fromObjectId(document._id),
    tenantId: document.tenantId,
    slug: document.slug,
    title: texts(document.title),
    description: texts(document.description),
    submitButtonText: texts(document.submitButtonText),
    isActive: document.isActive,
    visibility: document.visibility,
    sections: document.sections.map(toSection),
    captcha: toCaptcha(document.captcha),
    notifications: toNotifications(document.notifications),
    flow: { nextFormId: fromOptionalObjectId(document.flow.nextFormId), previousFormId: fromOptionalObjectId(document.flow.previousFormId) },
    createdBy: document.createdBy ?? null,
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
  };
}

/** `options` and `relation` exist only on the field types they belong to: absent, never null. */
function toFieldDocument(field: FormField): FieldDocument {
  const document: FieldDocument = {
    name: field.name,
    type: field.type,
    label: texts(field.label),
    required: field.required,
    placeholder: texts(field.placeholder),
  };
  if (field.options) document.options = field.options.map(toOption);
  if (field.relation) document.relation = { formId: toObjectId(field.relation.formId), multiple: field.relation.multiple };
  return document;
}

function toSection(document: SectionDocument): FormSection {
  return { title: texts(document.title), description: texts(document.description), fields: document.fields.map(toField) };
}

function toField(document: FieldDocument): FormField {
  const field: FormField = {
    name: document.name,
    type: document.type,
    label: texts(document.label),
    required: document.required,
    placeholder: texts(document.placeholder),
  };
  if (document.options) field.options = document.options.map(toOption);
  if (document.relation) field.relation = { formId: fromObjectId(document.relation.formId), multiple: document.relation.multiple };
  return field;
}

function toOption(option: FormFieldOption): FormFieldOption {
  return { value: option.value, label: texts(option.label) };
}

function toCaptcha(captcha: FormCaptcha): FormCaptcha {
  return { enabled: captcha.enabled, provider: captcha.provider, minScore: captcha.minScore };
}

function toNotifications(notifications: FormNotifications): FormNotifications {
  const { admin, submitter } = notifications.email;
  return {
    enabled: notifications.enabled,
    email: {
      admin: { enabled: admin.enabled, recipients: [...admin.recipients] },
      submitter: { enabled: submitter.enabled, field: submitter.field ?? null },
    },
    push: { admin: { enabled: notifications.push.admin.enabled }, submitter: { enabled: notifications.push.submitter.enabled } },
  };
}

/** Language code → text; a copy, so neither side shares the other's object. */
function texts(text: LocalizedText): LocalizedText {
  return { ...text };
}

function toOptionalObjectId(id: string | null): ObjectId | null {
  return id === null ? null : toObjectId(id);
}

function fromOptionalObjectId(id: ObjectId | null | undefined): string | null {
  return id ? fromObjectId(id) : null;
}
