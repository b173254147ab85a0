/**
 * A real HTTP server on 127.0.0.1 that speaks the chat-completions protocol, for tests of the
 * adapter and of the service: it records every request and answers as the test scripts it —
 * a completion, an error status, broken JSON, or nothing at all (to exercise timeouts); sent
 * with a content-length or chunked, after a 103 Early Hints if asked.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedChatRequest {
  readonly method: string;
  /** Path and query as received (`/v1/chat/completions?api-version=1`). */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The JSON body, parsed (or the raw text when it is not JSON). */
  readonly body: any;
  /** The client's port: requests with one port came over one (kept-alive) connection. */
  readonly remotePort: number;
}

/** How an answer with a body goes out (default: one piece, with its content-length). */
export interface FakeChatFraming {
  /** Without a content-length, in several chunks of chunked transfer encoding: the size is known only once read. */
  readonly chunked?: boolean;
  /** Headers of a `103 Early Hints` informational answer written before the answer. */
  readonly earlyHints?: Record<string, string>;
}

export type FakeChatReply =
  /** A JSON answer (default status 200). */
  | ({ readonly status?: number; readonly json: unknown } & FakeChatFraming)
  /** Exactly these bytes (default status 200, content type application/json). */
  | ({ readonly status?: number; readonly raw: string; readonly contentType?: string } & FakeChatFraming)
  /** Never answer: the connection stays open until the server closes. */
  | { readonly hang: 'before-headers' | 'after-headers' };

export type FakeChatScript = (request: ReceivedChatRequest) => FakeChatReply | Promise<FakeChatReply>;

/** An OpenAI-shaped completion whose first choice says `content`, charging `totalTokens`. */
export function chatCompletion(content: string, totalTokens: number): Record<string, unknown> {
  const prompt = Math.ceil(totalTokens / 2);
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1767225600,
    model: 'fake-model',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: prompt, completion_tokens: totalTokens - prompt, total_tokens: totalTokens },
  };
}

/** Answers every chat-completions request with `Translated: <user message>` for 10 tokens. */
export const echoTranslation: FakeChatScript = (request) => {
  const user = (request.body?.messages as Array<{ role: string; content: string }> | undefined)?.find((m) => m.role === 'user');
  return { json: chatCompletion(`Translated: ${user?.content ?? ''}`, 10) };
};

export class FakeChatCompletionsServer {
  readonly requests: ReceivedChatRequest[] = [];
  /** What the next requests get; change it between calls. */
  script: FakeChatScript;
  readonly #server: Server;

  private constructor(script: FakeChatScript) {
    this.script = script;
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => void this.#answer(req.method ?? '', req.url ?? '', req.headers, Buffer.concat(chunks).toString('utf8'), res, req.socket.remotePort ?? 0));
    });
  }

  /** Starts on an ephemeral port of 127.0.0.1. */
  static async start(script: FakeChatScript = echoTranslation): Promise<FakeChatCompletionsServer> {
    const fake = new FakeChatCompletionsServer(script);
    await new Promise<void>((resolve, reject) => {
      fake.#server.once('error', reject);
      fake.#server.listen(0, '127.0.0.1', () => resolve());
    });
    return fake;
  }

  /** The base URL to configure as AI_BASE_URL, with a `/v1` path like hosted OpenAI. */
  get baseUrl(): string {
    return `${this.origin}/v1`;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** Closes the kept-alive connections that carry no request now, as a provider does after its keep-alive timeout. */
  closeIdleConnections(): void {
    this.#server.closeIdleConnections();
  }

  /** Stops listening and cuts every connection, hanging ones included. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
  }

  async #answer(method: string, path: string, headers: IncomingHttpHeaders, text: string, res: ServerResponse, remotePort: number) {
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // keep the raw text: a test may want to see what was sent
    }
    const request: ReceivedChatRequest = { method, path, headers, body, remotePort };
    this.requests.push(request);
    const reply = await this.script(request);
    if ('hang' in reply) {
      if (reply.hang === 'after-headers') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"choices":');
      }
      return;
    }
    const payload = 'json' in reply ? JSON.stringify(reply.json) : reply.raw;
    const contentType = 'contentType' in reply && reply.contentType ? reply.contentType : 'application/json';
    if (reply.earlyHints) res.writeEarlyHints(reply.earlyHints);
    if (!reply.chunked) {
      res.writeHead(reply.status ?? 200, { 'content-type': contentType, 'content-length': Buffer.byteLength(payload) });
      res.end(payload);
      return;
    }
    res.writeHead(reply.status ?? 200, { 'content-type': contentType });
    const bytes = Buffer.from(payload, 'utf8');
    const piece = Math.ceil(bytes.byteLength / 4) || 1;
    for (let start = 0; start < bytes.byteLength; start += piece) res.write(bytes.subarray(start, start + piece));
    res.end();
  }
}
