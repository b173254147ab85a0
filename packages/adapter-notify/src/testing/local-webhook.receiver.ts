/**
 * A real HTTP receiver on 127.0.0.1 standing in for a push relay: records each POST (headers and
 * parsed JSON) and answers as scripted — a status, or silence (it never answers).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedPush {
  readonly method: string;
  readonly path: string;
  readonly contentType: string | undefined;
  readonly traceparent: string | undefined;
  readonly body: any;
  /** performance.now() when the request arrived. */
  readonly at: number;
}

export type WebhookAnswer = { readonly status: number; readonly location?: string } | 'hang';

export class LocalWebhookReceiver {
  readonly received: ReceivedPush[] = [];
  /** What the next request gets: a fixed answer, or one per request in arrival order (last repeats). */
  answers: WebhookAnswer[] = [{ status: 204 }];
  readonly #server: Server;

  private constructor() {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // keep the text: the test will show what came
        }
        this.received.push({ method: req.method ?? '', path: req.url ?? '', contentType: req.headers['content-type'], traceparent: req.headers.traceparent as string | undefined, body, at: performance.now() });
        const answer = this.answers[Math.min(this.received.length - 1, this.answers.length - 1)] ?? { status: 204 };
        if (answer === 'hang') return;
        res.writeHead(answer.status, { 'content-type': 'application/json', ...(answer.location ? { location: answer.location } : {}) });
        res.end(JSON.stringify({ ok: answer.status < 300 }));
      });
    });
  }

  static async start(): Promise<LocalWebhookReceiver> {
    const receiver = new LocalWebhookReceiver();
    await new Promise<void>((resolve) => receiver.#server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/push`;
  }

  async stop(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
  }
}
