/**
 * In-memory submissions. `connectRelation` changes the one relation key in place without
 * awaiting between reading and writing it — on the single JS thread as atomic as Mongo's
 * `$set` / `$addToSet` on one document — so concurrent connects lose nothing.
 */
import type { ConnectRelationCommand, ConnectRelationResult, SubmissionRepository } from '../forms/forms.ports.js';
import type { Submission } from '../forms/submission.js';
import { copyRecord } from './copy-record.js';
import { tenantKey } from './tenant-key.js';

export class MemorySubmissionRepository implements SubmissionRepository {
  readonly #submissions = new Map<string, Submission>();

  async insert(submission: Submission): Promise<void> {
    const key = tenantKey(submission.tenantId, submission.id);
    if (this.#submissions.has(key)) throw new Error(`duplicate submission id ${submission.id}`);
    this.#submissions.set(key, copyRecord(submission));
  }

  async findById(tenantId: string, id: string): Promise<Submission | null> {
    const submission = this.#submissions.get(tenantKey(tenantId, id));
    return submission ? copyRecord(submission) : null;
  }

  async connectRelation(command: ConnectRelationCommand): Promise<ConnectRelationResult> {
    const submission = this.#submissions.get(tenantKey(command.tenantId, command.submissionId));
    if (!submission) return { status: 'missing' };
    const { fieldName, relatedId } = command;
    if (command.multiple) {
      const current = submission.relations[fieldName];
      const list = Array.isArray(current) ? current : [];
      if (list.includes(relatedId)) return { status: 'unchanged', submission: copyRecord(submission) };
      if (list.length >= command.cap) return { status: 'full' };
      submission.relations[fieldName] = [...list, relatedId];
    } else {
      submission.relations[fieldName] = relatedId;
    }
    submission.updatedAt = command.now;
    return { status: 'connected', submission: copyRecord(submission) };
  }
}
