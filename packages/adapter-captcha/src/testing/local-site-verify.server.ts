/**
 * A real HTTP server on 127.0.0.1 that speaks the site-verify protocol, for tests. It records
 * every request (form fields decoded) and answers with whatever the test scripts: a JSON verdict,
 * a status with a raw body, a redirect, or silence (it never answers, to exercise timeouts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedVerifyRequest {
  readonly method: string;
  readonly path: string;
  readonly contentType: string | undefined;
  /** The W3C `traceparent` the caller sent, if any. */
  readonly traceparent?: string | undefined;
  readonly form: Record<string, string>;
}

export type VerifyAnswer =
  | { readonly kind: 'json'; readonly body: unknown; readonly status?: number }
  | { readonly kind: 'raw'; readonly body: string; readonly status: number }
  | { readonly kind: 'redirect'; readonly status: number; readonly location: string }
  | { readonly kind: 'hang' }
  /** Headers and the start of a body, then nothing: a timeout must cover reading the body too. */
  | { readonly kind: 'stall-body' };

export class LocalSiteVerifyServer {
  readonly received: ReceivedVerifyRequest[] = [];
  /** What the next requests get (a pass, with the score reCAPTCHA v3 answers); tests change it between calls. */
  answer: VerifyAnswer | ((request: ReceivedVerifyRequest) => VerifyAnswer) = { kind: 'json', body: { success: true, score: 0.9 } };
  readonly #server: Server;
  #url = '';

  private constructor() {
    this.#server = createServer((req, res) => void this.#handle(req, res));
  }

  static async start(): Promise<LocalSiteVerifyServer> {
    const server = new LocalSiteVerifyServer();
    await new Promise<void>((resolve) => server.#server.listen(0, '127.0.0.1', resolve));
    server.#url = `http://127.0.0.1:${(server.#server.address() as AddressInfo).port}/siteverify`;
    return server;
  }

  /** The verify URL to configure (`CAPTCHA_<PROVIDER>_VERIFY_URL`). */
  get url(): string {
    return this.#url;
  }

  async stop(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request: ReceivedVerifyRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      contentType: req.headers['content-type'],
      ...(req.headers.traceparent === undefined ? {} : { traceparent: String(req.headers.traceparent) }),
      form: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))),
    };
    this.received.push(request);
    const answer = typeof this.answer === 'function' ? this.answer(request) : this.answer;
    if (answer.kind === 'hang') return;
    if (answer.kind === 'stall-body') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"success":');
      return;
    }
    if (answer.kind === 'redirect') {
      res.writeHead(answer.status, { location: answer.location });
      res.end();
      return;
    }
    const body = answer.kind === 'json' ? JSON.stringify(answer.body) : answer.body;
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
    res.end(body);
  }
}
