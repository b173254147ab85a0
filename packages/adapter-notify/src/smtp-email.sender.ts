/**
 * E-mail over SMTP with nodemailer. One connection per message (no pool: notification volume is
 * low and nothing has to be closed at shutdown). The whole exchange is bounded by `timeoutMs`
 * through nodemailer's abort signal, so a silent server cannot outlive the dispatcher's lease.
 */
import { domainToASCII } from 'node:url';
import type { EmailMessage, EmailSender, EmailSendResult, RefusedRecipient } from '@cms/core';
import { errorText } from '@cms/core/internal';
import { createTransport } from 'nodemailer';

export interface SmtpEmailSettings {
  /** `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465` (TLS from the start). */
  readonly url: string;
  /** The From header and envelope sender: `cms@example.com` or `CMS <cms@example.com>`. */
  readonly from: string;
  /** Longest a send may take, connect to final reply. */
  readonly timeoutMs: number;
}

export class SmtpEmailSender implements EmailSender {
  readonly #transport: ReturnType<typeof createTransport>;

  constructor(private readonly settings: SmtpEmailSettings) {
    this.#transport = createTransport({
      url: settings.url,
      connectionTimeout: settings.timeoutMs,
      greetingTimeout: settings.timeoutMs,
      socketTimeout: settings.timeoutMs,
      // Keep our logs to the dispatcher's structured lines.
      logger: false,
    });
  }

  async send(message: EmailMessage): Promise<EmailSendResult> {
    const signal = AbortSignal.timeout(this.settings.timeoutMs);
    let info: { readonly rejectedErrors?: readonly RecipientError[] };
    try {
      info = await this.#transport.sendMail({
        from: this.settings.from,
        to: [...message.to],
        subject: message.subject,
        text: message.text,
        ...(message.html !== undefined ? { html: message.html } : {}),
        // RFC 3834: machine-written mail; auto-responders should not answer it.
        headers: { 'Auto-Submitted': 'auto-generated' },
        signal,
      });
    } catch (error) {
      // nodemailer's own connection/greeting/socket timers run on the same budget and may fire
      // first (code ETIMEDOUT); either way the server did not answer in time.
      if (signal.aborted || (error as { code?: unknown }).code === 'ETIMEDOUT') {
        throw new Error(`SMTP server gave no answer within ${this.settings.timeoutMs} ms`);
      }
      throw new Error(`SMTP send failed: ${errorText(error)}`);
    }
    return { refused: (info.rejectedErrors ?? []).map((refusal) => refusedRecipient(refusal, message.to)) };
  }
}

/** What nodemailer reports for each recipient a server refused while it took the message for others. */
interface RecipientError {
  readonly recipient?: string;
  readonly responseCode?: number;
  readonly response?: string;
}

/**
 * A refusal in the port's terms, naming the recipient as the message gave it (nodemailer names the
 * envelope address, whose domain it may have turned into punycode). Only a 4xx reply is worth
 * another attempt.
 */
function refusedRecipient(refusal: RecipientError, to: readonly string[]): RefusedRecipient {
  const envelope = refusal.recipient ?? '';
  const address = to.find((given) => addressKey(given) === addressKey(envelope)) ?? envelope;
  const code = refusal.responseCode ?? 0;
  return { address, transient: code >= 400 && code < 500, reply: refusal.response ?? String(code) };
}

function addressKey(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 0) return address.toLowerCase();
  return `${address.slice(0, at)}@${domainToASCII(address.slice(at + 1)) || address.slice(at + 1)}`.toLowerCase();
}
