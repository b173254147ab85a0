/**
 * Reading an outside service's answer (a fetch `Response`) without trusting its size: a CAPTCHA
 * provider or a push gateway that answers a gigabyte must not take the service's memory with it.
 */

/** The part of a fetch `Response` the reader needs. */
export interface AnswerBody {
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
}

/**
 * The answer's body as UTF-8 text, or `undefined` when it is longer than `maxBytes`: a declared
 * `Content-Length` over the limit is refused before a byte is read, and a body that grows past it
 * is cancelled there (its connection is not reused).
 */
export async function boundedText(answer: AnswerBody, maxBytes: number): Promise<string | undefined> {
  const declared = Number(answer.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await answer.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!answer.body) return '';
  const reader = answer.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
