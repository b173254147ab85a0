/**
 * Push notifications as an HTTP POST of JSON to one webhook (PUSH_WEBHOOK_URL), which relays them
 * to devices. Any 2xx is delivered; anything else, a timeout or a network error is a failure the
 * dispatcher retries. Errors never repeat the URL, which may carry a token. The POST carries the
 * attempt's span as `traceparent` (CONTRACT §8), in the trace of the submit behind the job.
 */
import type { PushPayload, PushSender, TraceContext } from '@cms/core';
import { boundedText, errorText, traceparentOf } from '@cms/core/internal';

export interface WebhookPushSettings {
  readonly url: string;
  /** Longest a POST may take, including reading the answer. */
  readonly timeoutMs: number;
}

const MAX_ANSWER_BYTES = 64 * 1024;

export class WebhookPushSender implements PushSender {
  constructor(private readonly settings: WebhookPushSettings) {}

  async send(payload: PushPayload, trace?: TraceContext): Promise<void> {
    const signal = AbortSignal.timeout(this.settings.timeoutMs);
    let status: number;
    try {
      const response = await fetch(this.settings.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'cms-service-notifications',
          ...(trace ? { traceparent: traceparentOf(trace) } : {}),
        },
        body: JSON.stringify(payload),
        // A redirected POST would arrive as a GET elsewhere: a 3xx is a failure, not followed.
        redirect: 'manual',
        signal,
      });
      status = response.status;
      // Read the answer to the end so the connection can be reused; past 64 KiB it is cut off
      // (only its status counts, and a gateway's answer must not take the service's memory).
      await boundedText(response, MAX_ANSWER_BYTES);
    } catch (error) {
      if (signal.aborted) throw new Error(`push webhook gave no answer within ${this.settings.timeoutMs} ms`);
      const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
      // fetch's own messages can quote the URL ("Failed to parse URL from …"): it is taken out.
      throw new Error(`push webhook unreachable (${withoutUrl(`${errorText(error)}${cause}`, this.settings.url)})`);
    }
    if (status < 200 || status > 299) throw new Error(`push webhook answered HTTP ${status}`);
  }
}

/** `text` with every occurrence of `url` replaced, so an error never repeats a token the URL carries. */
function withoutUrl(text: string, url: string): string {
  return url === '' ? text : text.split(url).join('<PUSH_WEBHOOK_URL>');
}
