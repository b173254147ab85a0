/**
 * E-mail over SMTP with nodemailer. One connection per message (no pool: notification volume is
 * low and nothing has to be closed at shutdown). The whole exchange is bounded by `timeoutMs`
 * through nodemailer's abort signal, so a silent server cannot outlive the dispatcher's lease.
 */
import type { EmailMessage, EmailSender } from '@cms/core';
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

  async send(message: EmailMessage): Promise<void> {
    const signal = AbortSignal.timeout(this.settings.timeoutMs);
    try {
      await this.#transport.sendMail({
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
  }
}
