/**
 * Reads a chat-completions answer into a translation result, or says why it is unusable: the
 * first choice's text (trimmed, not empty) and `usage.total_tokens` (a whole number ≥ 0).
 */
import { type TranslationResult } from '@cms/core';
import { aiProviderFailed } from '@cms/core/internal';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export function parseChatCompletion(body: string): TranslationResult {
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    throw aiProviderFailed('malformed JSON');
  }
  if (!isObject(answer)) throw aiProviderFailed('the answer is not a JSON object');
  const { choices, usage } = answer;
  if (!Array.isArray(choices) || choices.length === 0) throw aiProviderFailed('no choices');
  const first: unknown = choices[0];
  const message = isObject(first) ? first.message : undefined;
  const content = textOf(isObject(message) ? message.content : undefined)?.trim();
  if (!content) throw aiProviderFailed('empty content');
  const totalTokens = isObject(usage) ? usage.total_tokens : undefined;
  if (typeof totalTokens !== 'number' || !Number.isSafeInteger(totalTokens) || totalTokens < 0) {
    throw aiProviderFailed('missing or invalid usage.total_tokens');
  }
  return { content, totalTokens };
}

/**
 * A message's text. Usually a string; some compatible servers send a list of parts
 * (`[{type: 'text', text}]`, with reasoning in parts of other types), whose text parts are joined.
 */
function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  return content
    .filter((part): part is { type: 'text'; text: string } => isObject(part) && part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('');
}
