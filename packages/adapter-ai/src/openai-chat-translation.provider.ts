/**
 * TranslationProvider over the OpenAI-compatible chat-completions protocol (POST
 * `{baseUrl}/chat/completions`): hosted OpenAI, gateways, Ollama, vLLM and llama.cpp servers
 * all speak it. One attempt per call, no retries: each attempt may cost money, and the caller
 * decides whether to try again. The call goes out through `node:http`/`node:https` with a
 * keep-alive agent, not the global `fetch`: the benchmark's profiles put undici's web streams,
 * abort signals and request objects at half of a translate request's CPU (decision 0610).
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import {
  aiProviderFailed,
  aiProviderTimedOut,
  isDomainError,
  silentLogger,
  type Logger,
  type TranslationProvider,
  type TranslationRequest,
  type TranslationResult,
} from '@cms/core';
import { parseChatCompletion } from './chat-completion.answer.js';
import { translationMessages } from './chat-translation.prompt.js';

export interface OpenAiChatSettings {
  /** AI_BASE_URL, including any version path (`https://api.openai.com/v1`); a query string is kept. */
  readonly baseUrl: string;
  /** AI_API_KEY, sent as a bearer token; absent for servers that need none (Ollama, vLLM, llama.cpp). */
  readonly apiKey?: string | undefined;
  /** AI_MODEL. */
  readonly model: string;
  /** AI_TIMEOUT_MS: the whole call, answer body included. */
  readonly timeoutMs: number;
  /** Where failures are reported (reason only: never the text, the answer or the key). */
  readonly logger?: Logger;
  /** Larger answers are refused as unusable (default 8 MiB). */
  readonly maxAnswerBytes?: number;
}

const DEFAULT_MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** `{baseUrl}/chat/completions`, keeping the base's path and query. */
export function chatCompletionsUrl(baseUrl: string): URL {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/chat/completions`;
  return url;
}

export class OpenAiChatTranslationProvider implements TranslationProvider {
  readonly configured = true;
  /** Where and how to POST, worked out once (not from the URL on every call). */
  readonly #target: RequestOptions;
  readonly #headers: Record<string, string>;
  readonly #logger: Logger;
  readonly #send: typeof httpRequest;

  constructor(private readonly settings: OpenAiChatSettings) {
    const endpoint = chatCompletionsUrl(settings.baseUrl);
    this.#headers = { 'content-type': 'application/json', accept: 'application/json' };
    if (settings.apiKey) this.#headers.authorization = `Bearer ${settings.apiKey}`;
    this.#logger = settings.logger ?? silentLogger;
    const https = endpoint.protocol === 'https:';
    this.#send = https ? httpsRequest : httpRequest;
    // Keeps connections to the provider open between calls; an idle one is dropped when the
    // provider's Keep-Alive header says it will close it.
    const agent = https ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
    this.#target = {
      protocol: endpoint.protocol,
      // `[::1]` in a URL, `::1` for the socket.
      hostname: endpoint.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: endpoint.port || (https ? 443 : 80),
      path: `${endpoint.pathname}${endpoint.search}`,
      method: 'POST',
      agent,
    };
  }

  async translate(request: TranslationRequest): Promise<TranslationResult> {
    try {
      // Only model and messages: sampling options such as temperature are refused by some
      // hosted models, and every compatible server has sensible defaults.
      const body = JSON.stringify({ model: this.settings.model, messages: translationMessages(request) });
      return parseChatCompletion(await this.#post(body));
    } catch (error) {
      if (isDomainError(error)) {
        this.#logger.warn('AI provider call failed', { code: error.code, reason: error.message, model: this.settings.model });
      }
      throw error;
    }
  }

  /**
   * POSTs `body` and resolves with the answer's text (a 2xx answer, at most `maxAnswerBytes`);
   * rejects with AI_PROVIDER_FAILED or, once `timeoutMs` has passed, AI_PROVIDER_TIMEOUT. A
   * redirect is a failure like any other non-2xx answer (following it would turn the POST into
   * a GET).
   */
  #post(body: string): Promise<string> {
    const { timeoutMs } = this.settings;
    const maxBytes = this.settings.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    const options: RequestOptions = { ...this.#target, headers: { ...this.#headers, 'content-length': Buffer.byteLength(body) } };
    return new Promise<string>((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outcome();
      };
      const fail = (error: Error) => settle(() => reject(error));
      // One attempt, also when a kept-alive connection turns out closed (as with fetch).
      const request = this.#send(options, (response) => read(response));
      const timer = setTimeout(() => {
        fail(aiProviderTimedOut(timeoutMs));
        request.destroy();
      }, timeoutMs);
      request.on('error', (error) => fail(aiProviderFailed(`unreachable (${networkReason(error)})`)));

      const read = (response: IncomingMessage) => {
        const status = response.statusCode ?? 0;
        if (status < 200 || status > 299) {
          response.resume();
          return fail(aiProviderFailed(`HTTP ${status}`));
        }
        if (Number(response.headers['content-length'] ?? 0) > maxBytes) {
          response.destroy();
          return fail(aiProviderFailed('answer too large'));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.byteLength;
          if (size > maxBytes) {
            response.destroy();
            return fail(aiProviderFailed('answer too large'));
          }
          chunks.push(chunk);
        });
        response.on('end', () => settle(() => resolve(Buffer.concat(chunks).toString('utf8'))));
        response.on('error', (error) => fail(aiProviderFailed(`unreachable (${networkReason(error)})`)));
        response.on('aborted', () => fail(aiProviderFailed('unreachable (answer cut off)')));
      };

      request.end(body);
    });
  }
}

/** `ECONNREFUSED`, `ENOTFOUND`, … from a socket error. */
function networkReason(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') return code;
  if (typeof message === 'string') return message;
  return String(error);
}
