/**
 * In-memory submissions. `connectRelation` replaces the record with one whose relation key
 * changed, without awaiting between reading and writing it — on the single JS thread as atomic as Mongo's
 * `$set` / `$addToSet` on one document — so concurrent connects lose nothing.
 */
import type { ConnectRelationCommand, ConnectRelationResult, SubmissionRepository } from '../forms/forms.ports.js';
import type { Submission } from '../forms/submission.js';
import { SnapshotTable } from './snapshot-table.js';
import { tenantKey } from './tenant-key.js';

export class MemorySubmissionRepository implements SubmissionRepository {
  readonly #submissions = new SnapshotTable<Submission>();

  async insert(submission: Submission): Promise<void> {
    if (!this.#submissions.insert(tenantKey(submission.tenantId, submission.id), submission)) {
      throw new Error(`duplicate submission id ${submission.id}`);
    }
  }

  async findById(tenantId: string, id: string): Promise<Submission | null> {
    return this.#submissions.get(tenantKey(tenantId, id)) ?? null;
  }

  async findByIds(tenantId: string, ids: readonly string[]): Promise<Submission[]> {
    const found = [...new Set(ids)].map((id) => this.#submissions.get(tenantKey(tenantId, id)));
    return found.filter((submission): submission is Submission => submission !== undefined);
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
      value = [...list, relatedId];
    }
    const next = this.#submissions.update(key, (current) => ({
      ...current,
      relations: { ...current.relations, [fieldName]: value },
      updatedAt: command.now,
    }))!;
    return { status: 'connected', submission: next };
  }
}
