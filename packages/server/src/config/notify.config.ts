/**
 * Notification delivery settings: the two channels (SMTP e-mail, push webhook; each optional) and
 * how the dispatcher polls, times out, leases and retries. A channel left unset is "not
 * configured": its jobs are marked skipped.
 */
import { DEFAULT_NOTIFICATION_DISPATCH as DEFAULTS } from '@cms/core';
import { ConfigError, type EnvReader } from './env-reader.js';
import { hasCredentials, isHttpUrl, parsedUrl } from './urls.js';

export interface NotifyConfig {
  /** Set when SMTP_URL is. */
  readonly email: { readonly smtpUrl: string; readonly from: string } | undefined;
  /** Set when PUSH_WEBHOOK_URL is. */
  readonly push: { readonly webhookUrl: string } | undefined;
  /** Attempts per job, the first included. */
  readonly maxAttempts: number;
  /** Wait before the second attempt; doubles after each failure … */
  readonly retryBaseMs: number;
  /** … up to this. */
  readonly retryMaxMs: number;
  /** Pause between dispatch passes when the outbox had nothing more to send. */
  readonly pollMs: number;
  /** Longest one send (SMTP exchange or webhook POST) may take. */
  readonly sendTimeoutMs: number;
  /** How long a claim holds a job: well above the send timeout, so no live send is claimed twice. */
  readonly leaseMs: number;
  /** Most jobs in flight at once: a pass claims only the places free (decision 0815). */
  readonly batchSize: number;
  /** NOTIFY_KEEP_HOURS: how long a finished job (its message carries the submission's values) is kept. */
  readonly keepFinishedMs: number;
}

const MAILBOX = /^[^\s@<>",;]+@[^\s@<>",;]+$/;
const NAMED_MAILBOX = /^[^<>\r\n]*<[^\s@<>",;]+@[^\s@<>",;]+>$/;

export function loadNotifyConfig(read: EnvReader): NotifyConfig {
  const smtpUrl = read.string('SMTP_URL');
  if (smtpUrl !== undefined) checkSmtpUrl(smtpUrl);
  const from = read.string('SMTP_FROM');
  if (from !== undefined && !MAILBOX.test(from) && !NAMED_MAILBOX.test(from)) {
    throw new ConfigError('SMTP_FROM', `must be an address such as cms@example.com or "CMS <cms@example.com>" (got "${from}")`);
  }
  if (smtpUrl !== undefined && from === undefined) {
    throw new ConfigError('SMTP_FROM', 'must be set when SMTP_URL is (the sender address of notification e-mail)');
  }
  const webhookUrl = read.string('PUSH_WEBHOOK_URL');
  if (webhookUrl !== undefined) checkPushUrl(webhookUrl);
  const retryBaseMs = read.int('NOTIFY_RETRY_BASE_MS', DEFAULTS.retryBaseMs, 10, 86_400_000);
  const retryMaxMs = read.int('NOTIFY_RETRY_MAX_MS', Math.max(DEFAULTS.retryMaxMs, retryBaseMs), 10, 86_400_000);
  if (retryMaxMs < retryBaseMs) {
    throw new ConfigError('NOTIFY_RETRY_MAX_MS', `must not be below NOTIFY_RETRY_BASE_MS (${retryBaseMs})`);
  }
  const sendTimeoutMs = read.int('NOTIFY_SEND_TIMEOUT_MS', 10_000, 100, 120_000);
  return {
    email: smtpUrl !== undefined && from !== undefined ? { smtpUrl, from } : undefined,
    push: webhookUrl !== undefined ? { webhookUrl } : undefined,
    maxAttempts: read.int('NOTIFY_MAX_ATTEMPTS', DEFAULTS.maxAttempts, 1, 100),
    retryBaseMs,
    retryMaxMs,
    pollMs: read.int('NOTIFY_POLL_MS', DEFAULTS.intervalMs, 10, 60_000),
    sendTimeoutMs,
    leaseMs: Math.max(60_000, 3 * sendTimeoutMs),
    batchSize: DEFAULTS.batchSize,
    keepFinishedMs: read.int('NOTIFY_KEEP_HOURS', DEFAULTS.keepFinishedMs / 3_600_000, 0, 8760) * 3_600_000,
  };
}

/**
 * An SMTP URL that the mailer can use, checked whole at start-up rather than failing every send:
 * it parses, names a host, its port is one (the WHATWG parser refuses 99999), and its user and
 * password decode. Messages never repeat the value: it may carry a password.
 */
function checkSmtpUrl(value: string): void {
  const refuse = (why: string) => new ConfigError('SMTP_URL', `${why} (an smtp:// or smtps:// URL such as smtp://user:pass@mail.example.com:587)`);
  const url = parsedUrl(value);
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '' || /\s/.test(value)) throw refuse('must be a well-formed URL');
  if (!decodes(url.username) || !decodes(url.password)) throw refuse('has a user or password with a bad %-escape');
}

/**
 * A push URL `fetch` can post to: http(s), a host, and no user or password (`fetch` refuses a URL
 * with credentials: every push would fail). A token goes in the path or the query instead.
 */
function checkPushUrl(value: string): void {
  const url = parsedUrl(value);
  if (!isHttpUrl(url) || url.hostname === '' || /\s/.test(value)) {
    throw new ConfigError('PUSH_WEBHOOK_URL', 'must be a well-formed http(s) URL');
  }
  if (hasCredentials(url)) {
    throw new ConfigError('PUSH_WEBHOOK_URL', 'must not carry a user or password (fetch refuses them; put a token in the path or the query)');
  }
}

function decodes(part: string): boolean {
  try {
    decodeURIComponent(part);
    return true;
  } catch {
    return false;
  }
}
