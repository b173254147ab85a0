/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests: every request is verified with the
 * Standard Webhooks reference library (`standardwebhooks`) against the webhook's secret, and
 * recorded with its headers and body. Answers are scripted per request (a status, a redirect, or
 * silence past the sender's timeout); the last answer repeats.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** Settings for fast webhook tests: private networks allowed (the receiver is on loopback), short waits, 3 attempts. */
export const FAST_WEBHOOKS = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  // Long enough that a loaded machine never times out a receiver that answers at once (a retry would double a delivery).
  WEBHOOK_TIMEOUT_MS: '1500',
  NOTIFY_POLL_MS: '20',
  NOTIFY_RETRY_BASE_MS: '30',
  NOTIFY_RETRY_MAX_MS: '60',
  NOTIFY_MAX_ATTEMPTS: '3',
};

export interface ReceivedWebhook {
  readonly path: string;
  readonly id: string;
  readonly timestamp: string;
  readonly signature: string;
  readonly traceparent: string;
  readonly rawBody: string;
  readonly body: any;
  /** Set when `standardwebhooks` accepted the signature; the error message otherwise. */
  readonly verified: true | string;
}

/** A status (answered once `heldUntil` settles, when given), or silence. */
export type ReceiverAnswer = { readonly status: number; readonly location?: string; readonly heldUntil?: Promise<unknown> } | 'hang';

export class StandardWebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  answers: ReceiverAnswer[] = [{ status: 204 }];
  /** The secret of the webhook under test, once created. */
  secret: string | undefined;
  /** The most requests that were open at once (arrived, neither answered nor given up by the sender). */
  mostOpen = 0;
  #open = 0;
  readonly #server: Server;

  private constructor() {
    this.#server = createServer((req, res) => {
      this.mostOpen = Math.max(this.mostOpen, ++this.#open);
      res.on('close', () => (this.#open -= 1));
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        const header = (name: string) => String(req.headers[name] ?? '');
        const headers = { 'webhook-id': header('webhook-id'), 'webhook-timestamp': header('webhook-timestamp'), 'webhook-signature': header('webhook-signature') };
        let verified: true | string;
        try {
          if (!this.secret) throw new Error('no secret set on the receiver');
          new Webhook(this.secret).verify(rawBody, headers);
          verified = true;
        } catch (error) {
          verified = error instanceof Error ? error.message : String(error);
        }
        let body: unknown = rawBody;
        try {
          body = JSON.parse(rawBody);
        } catch {
          // keep the text
        }
        const index = this.received.length;
        this.received.push({ path: req.url ?? '', id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], signature: headers['webhook-signature'], traceparent: header('traceparent'), rawBody, body, verified });
        const answer = this.answers[Math.min(index, this.answers.length - 1)] ?? { status: 204 };
        if (answer === 'hang') return;
        void Promise.resolve(answer.heldUntil).then(() => {
          res.writeHead(answer.status, answer.location ? { location: answer.location } : {});
          res.end();
        });
      });
    });
  }

  static async start(): Promise<StandardWebhookReceiver> {
    const receiver = new StandardWebhookReceiver();
    await new Promise<void>((resolve) => receiver.#server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}${path}`;
  }

  /** Resolves once `count` requests arrived; rejects after `timeoutMs`. */
  async waitFor(count: number, timeoutMs = 5000): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} webhook requests, got ${this.received.length}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return this.received;
  }

  async stop(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
  }
}
