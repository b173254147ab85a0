/**
 * Delivery side of notifications: one sender port per channel, and the policy the dispatcher
 * follows (attempts, back-off, lease, batch). A channel whose sender is absent is "not
 * configured": its jobs are completed as skipped rather than retried.
 */
import { portToken, type PortToken } from '../shared/port-token.js';
import type { TraceContext } from '../shared/trace-context.js';

/** A plain e-mail, already rendered. */
export interface EmailMessage {
  readonly to: readonly string[];
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
}

/** A recipient the mail server refused while it took the message for others. */
export interface RefusedRecipient {
  readonly address: string;
  /** A 4xx reply: the server may take it later (greylisting, a full mailbox). Anything else is final. */
  readonly transient: boolean;
  /** The server's reply, for the operator's log. */
  readonly reply: string;
}

/** What a send that the server accepted for at least one recipient reports. */
export interface EmailSendResult {
  /** The recipients it refused; the others have the message. Empty or absent: it took them all. */
  readonly refused?: readonly RefusedRecipient[];
}

/**
 * Sends e-mail. Resolves once the mail server accepted the message for at least one recipient,
 * with those it refused (a sender that cannot tell may resolve with nothing: every recipient
 * counts as served); rejects (with a message fit for an operator's log, never containing
 * credentials) when it accepted it for none. Must settle within its own send timeout, which has to
 * stay well under the dispatcher's lease.
 */
export interface EmailSender {
  send(message: EmailMessage): Promise<EmailSendResult | void>;
}

/** A push notification as a JSON object, handed to whatever relays it to devices. */
export type PushPayload = Readonly<Record<string, unknown>>;

/** Sends push notifications. Same settle-or-reject and timeout rules as EmailSender. */
export interface PushSender {
  /** `trace`: the span this attempt is, in the trace of the submit behind the job; sent as its `traceparent`. */
  send(payload: PushPayload, trace?: TraceContext): Promise<void>;
}

export interface NotificationDeliveryPolicy {
  /** Attempts per job, the first included (NOTIFY_MAX_ATTEMPTS, default 5). */
  readonly maxAttempts: number;
  /** Wait before the second attempt; each later wait doubles. */
  readonly retryBaseMs: number;
  /** Ceiling of any single wait. */
  readonly retryMaxMs: number;
  /** How long a claim holds a job; must exceed the senders' timeout by a margin. */
  readonly leaseMs: number;
  /**
   * Jobs one `execute` claims and sends concurrently; on a `DispatchLoop`, the most in flight at
   * once, a pass claiming only the places free (decision 0815).
   */
  readonly batchSize: number;
  /**
   * How long a finished job (sent, failed, skipped) is kept after its last attempt was due
   * (NOTIFY_KEEP_HOURS, default 24 h): its message carries the submission's values, and the
   * outbox is a queue, not an archive. The dispatcher deletes older ones once a minute, never one
   * a submission's recovery may still look for (at least 60 s plus `leaseMs`; decision 0795).
   */
  readonly keepFinishedMs: number;
}

export const EmailSenderToken: PortToken<EmailSender> = portToken('EmailSender');
export const PushSenderToken: PortToken<PushSender> = portToken('PushSender');
export const NotificationDeliveryPolicyToken: PortToken<NotificationDeliveryPolicy> = portToken('NotificationDeliveryPolicy');
