import { NO_WEBHOOK_EVENTS, type WebhookEventRecorder } from '../webhooks/webhook-events.js';
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { nextUpdatedAt } from '../shared/entity-tag.js';
import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { wellFormedIdOr } from '../shared/input-rules.js';
import { requiresRoles } from '../shared/access.js';
import { requireRole } from '../shared/require-user.js';
import { toCommentView, type CommentView } from './comment.js';
import type { CommentRepository } from './comments.ports.js';

/** The record, by its id as the caller gave it (checked: a malformed one is refused). */
export interface ApproveCommentInput {
  readonly id: string;
}

/** Approves a comment (bearer token, admin or editor); approving an approved comment is a no-op. */
export class ApproveComment {
  /** Who may call: the one declaration the HTTP routes, OpenAPI and docs/permissions.md follow. */
  static readonly access = requiresRoles('admin', 'editor');

  constructor(
    private readonly comments: CommentRepository,
    private readonly clock: Clock,
    private readonly events: WebhookEventRecorder = NO_WEBHOOK_EVENTS,
  ) {}

  async execute(caller: Caller, { id: commentId }: ApproveCommentInput): Promise<CommentView> {
    const user = requireRole(caller, ApproveComment.access.roles);
    const id = wellFormedIdOr(commentId, ErrorCodes.INVALID_COMMENT_ID);
    const current = await this.comments.findById(caller.tenantId, id);
    if (!current) throw notFound();
    const witness = { kind: 'comment-approved', id } as const;
    return this.events.around({ tenantId: caller.tenantId, type: 'comment.approved', witness, trace: caller.trace }, async () => {
      // Later than the version it replaces, whatever the clock says (a frozen or stepped-back
      // clock): `updatedAt` is what an If-Match delete compares (decisions 0760, 0765).
      const now = nextUpdatedAt(current.updatedAt, this.clock.now());
      const approval = await this.comments.approve(caller.tenantId, id, user.id, now);
      if (!approval) throw notFound();
      const view = toCommentView.fresh(approval.comment);
      // Approved already (the store says so: two approvals may share a millisecond): no event.
      return approval.changed ? { result: view, data: view } : { result: view };
    });
  }
}

const notFound = () => new DomainError(ErrorCodes.COMMENT_NOT_FOUND, 'Comment not found');
