/**
 * TranslationProvider over the OpenAI-compatible chat-completions protocol (POST
 * `{baseUrl}/chat/completions`), with plain `fetch`: hosted OpenAI, gateways, Ollama, vLLM and
 * llama.cpp servers all speak it. One attempt per call, no retries: each attempt may cost money,
 * and the caller decides whether to try again.
 */
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
  readonly #endpoint: URL;
  readonly #headers: Record<string, string>;
  readonly #logger: Logger;

  constructor(private readonly settings: OpenAiChatSettings) {
    this.#endpoint = chatCompletionsUrl(settings.baseUrl);
    this.#headers = { 'content-type': 'application/json', accept: 'application/json' };
    if (settings.apiKey) this.#headers.authorization = `Bearer ${settings.apiKey}`;
    this.#logger = settings.logger ?? silentLogger;
  }

  async translate(request: TranslationRequest): Promise<TranslationResult> {
    try {
      return await this.#call(request);
    } catch (error) {
      if (isDomainError(error)) {
        this.#logger.warn('AI provider call failed', { code: error.code, reason: error.message, model: this.settings.model });
      }
      throw error;
    }
  }

  async #call(request: TranslationRequest): Promise<TranslationResult> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.settings.timeoutMs);
    try {
      const response = await fetch(this.#endpoint, {
        method: 'POST',
        headers: this.#headers,
        // Only model and messages: sampling options such as temperature are refused by some
        // hosted models, and every compatible server has sensible defaults.
        body: JSON.stringify({ model: this.settings.model, messages: translationMessages(request) }),
        signal: controller.signal,
        redirect: 'error',
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw aiProviderFailed(`HTTP ${response.status}`);
      }
      return parseChatCompletion(await readAnswer(response, this.settings.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES));
    } catch (error) {
      if (timedOut) throw aiProviderTimedOut(this.settings.timeoutMs);
      if (isDomainError(error)) throw error;
      throw aiProviderFailed(`unreachable (${networkReason(error)})`);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The answer body as text, refusing more than `maxBytes`. */
async function readAnswer(response: Response, maxBytes: number): Promise<string> {
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw aiProviderFailed('answer too large');
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > maxBytes) throw aiProviderFailed('answer too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `ECONNREFUSED`, `ENOTFOUND`, … from undici's "fetch failed" and its cause. */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}
