/**
 * TranslationProvider over the OpenAI-compatible chat-completions protocol (POST
 * `{baseUrl}/chat/completions`): hosted OpenAI, gateways, Ollama, vLLM and llama.cpp servers
 * all speak it. One attempt per call, no retries: each attempt may cost money, and the caller
 * decides whether to try again. The call goes out through an undici `Pool`'s `dispatch` with a
 * plain handler: no `fetch` (web streams, request objects, decision 0610) and no `node:http`
 * client (ClientRequest, agent, parser events), whose layers cost several times the CPU of the
 * call for one small POST and one small answer (decision 0615 has the figures).
 */
import { Pool, type Dispatcher } from 'undici';
import {
  isDomainError,
  silentLogger,
  type Logger,
  type TraceContext,
  type TranslationProvider,
  type TranslationRequest,
  type TranslationResult,
} from '@cms/core';
import {
  aiProviderFailed,
  aiProviderTimedOut,
  logFieldsOf,
  traceparentOf,
} from '@cms/core/internal';
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
  /** What every call sends, worked out once (not from the URL on every call). */
  readonly #path: string;
  /**
   * Name, value, name, value…: undici takes headers as such a list as well as an object, and with
   * `traceparent` added the list is the cheaper of the two (decision 0730 has the figures).
   */
  readonly #headers: string[];
  readonly #logger: Logger;
  /**
   * Keeps connections to the provider open between calls, as many as calls run at once; an idle
   * one is closed after the provider's Keep-Alive hint (4 s without one). undici's own header and
   * body timeouts are off: `timeoutMs` bounds the whole call. `pipelining: 2` only lets a
   * connection take the next call as soon as an answer has ended (with 1, undici waits a turn of
   * the event loop first, so back-to-back calls opened a second connection): undici never writes
   * a POST while another request is open on its connection.
   */
  readonly #pool: Pool;

  constructor(private readonly settings: OpenAiChatSettings) {
    const endpoint = chatCompletionsUrl(settings.baseUrl);
    this.#path = `${endpoint.pathname}${endpoint.search}`;
    this.#headers = ['content-type', 'application/json', 'accept', 'application/json', ...(settings.apiKey ? ['authorization', `Bearer ${settings.apiKey}`] : [])];
    this.#logger = settings.logger ?? silentLogger;
    this.#pool = new Pool(endpoint.origin, { pipelining: 2, headersTimeout: 0, bodyTimeout: 0 });
  }

  async translate(request: TranslationRequest): Promise<TranslationResult> {
    try {
      // Only model and messages: sampling options such as temperature are refused by some
      // hosted models, and every compatible server has sensible defaults.
      const body = JSON.stringify({ model: this.settings.model, messages: translationMessages(request) });
      return parseChatCompletion(await this.#post(body, request.trace));
    } catch (error) {
      if (isDomainError(error)) {
        this.#logger.warn('AI provider call failed', { code: error.code, reason: error.message, model: this.settings.model, ...logFieldsOf(request.trace) });
      }
      throw error;
    }
  }

  /**
   * POSTs `body` and resolves with the answer's text (a 2xx answer, at most `maxAnswerBytes`);
   * rejects with AI_PROVIDER_FAILED or, once `timeoutMs` has passed, AI_PROVIDER_TIMEOUT. A
   * redirect is a failure like any other non-2xx answer (following it would turn the POST into
   * a GET). One attempt: a POST is never retried by undici, also not when a kept-alive
   * connection turns out closed.
   */
  #post(body: string, trace: TraceContext | undefined): Promise<string> {
    const { timeoutMs } = this.settings;
    const maxBytes = this.settings.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    return new Promise<string>((resolve, reject) => {
      let settled = false;
      /** Set once the request is on a connection; until then a timeout cancels it when it gets there. */
      let controller: Dispatcher.DispatchController | undefined;
      let cancelled: Error | undefined;
      const cancel = (reason: Error) => {
        if (controller) controller.abort(reason);
        else cancelled = reason;
      };
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        outcome();
      };
      const fail = (error: Error) => settle(() => reject(error));
      const timer = setTimeout(() => {
        const error = aiProviderTimedOut(timeoutMs);
        fail(error);
        cancel(error);
      }, timeoutMs);

      const chunks: Buffer[] = [];
      let size = 0;
      const tooLarge = () => {
        const error = aiProviderFailed('answer too large');
        fail(error);
        cancel(error);
      };
      this.#pool.dispatch(
        { path: this.#path, method: 'POST', headers: trace ? [...this.#headers, 'traceparent', traceparentOf(trace)] : this.#headers, body },
        {
          onRequestStart(started) {
            controller = started;
            if (cancelled) started.abort(cancelled);
          },
          onResponseStart(_controller, status, headers) {
            if (status < 200) return; // informational (103 Early Hints): the answer follows
            // A non-2xx answer's body is read and dropped, so that its connection is kept.
            if (status > 299) return fail(aiProviderFailed(`HTTP ${status}`));
            if (Number(headers['content-length'] ?? 0) > maxBytes) tooLarge();
          },
          onResponseData(_controller, chunk) {
            if (settled) return;
            size += chunk.byteLength;
            if (size > maxBytes) return tooLarge();
            chunks.push(chunk);
          },
          onResponseEnd() {
            settle(() => resolve(Buffer.concat(chunks).toString('utf8')));
          },
          onResponseError(_controller, error) {
            fail(aiProviderFailed(`unreachable (${networkReason(error)})`));
          },
        },
      );
    });
  }
}

/** `ECONNREFUSED`, `ENOTFOUND`, … from a socket error; undici's own errors by their message (`other side closed`). */
function networkReason(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && !code.startsWith('UND_ERR_')) return code;
  if (typeof message === 'string') return message;
  return String(error);
}
