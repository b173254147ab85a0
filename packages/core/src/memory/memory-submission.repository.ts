/**
 * In-memory submissions. `connectRelation` replaces the record with one whose relation key
 * changed, without awaiting between reading and writing it — on the single JS thread as atomic as Mongo's
 * `$set` / `$addToSet` on one document — so concurrent connects lose nothing.
 */
import type { ConnectRelationCommand, ConnectRelationResult, SubmissionRepository } from '../forms/forms.ports.js';
import type { Submission } from '../forms/submission.js';
import type { PageQuery } from '../shared/page-cursor.js';
import { frozenCopy, frozenDate } from './copy-record.js';
import { collectPage, KeysetIndex } from './keyset-index.js';
import { tenantKey } from './tenant-key.js';

export class MemorySubmissionRepository implements SubmissionRepository {
  readonly #submissions = new Map<string, Submission>();
  /** (tenant, form) → its submissions in list order. */
  readonly #byForm = new KeysetIndex();

  async insert(submission: Submission): Promise<void> {
    const key = tenantKey(submission.tenantId, submission.id);
    if (this.#submissions.has(key)) throw new Error(`duplicate submission id ${submission.id}`);
    this.#submissions.set(key, frozenCopy(submission));
    this.#byForm.add(tenantKey(submission.tenantId, submission.formId), submission, key);
  }

  async listByForm(tenantId: string, formId: string, page: PageQuery): Promise<Submission[]> {
    return collectPage(this.#byForm.keysFor(tenantKey(tenantId, formId), page), (key) => this.#submissions.get(key), page);
  }

  async findById(tenantId: string, id: string): Promise<Submission | null> {
    return this.#submissions.get(tenantKey(tenantId, id)) ?? null;
  }

  async connectRelation(command: ConnectRelationCommand): Promise<ConnectRelationResult> {
    const key = tenantKey(command.tenantId, command.submissionId);
    const submission = this.#submissions.get(key);
    if (!submission) return { status: 'missing' };
    const { fieldName, relatedId } = command;
    let value: string | string[] = relatedId;
    if (command.multiple) {
      const current = Object.hasOwn(submission.relations, fieldName) ? submission.relations[fieldName] : undefined;
      const list = Array.isArray(current) ? current : [];
      if (list.includes(relatedId)) return { status: 'unchanged', submission };
      if (list.length >= command.cap) return { status: 'full' };
      value = Object.freeze([...list, relatedId]) as string[];
    }
    const relations = Object.freeze({ ...submission.relations, [fieldName]: value });
    const next = Object.freeze({ ...submission, relations, updatedAt: frozenDate(command.now) });
    this.#submissions.set(key, next);
    return { status: 'connected', submission: next };
  }
}
