/**
 * The text of something thrown, for a log field or a stored attempt: an Error's message, anything
 * else as a string. With `max`, a longer text is cut to `max` characters ending in an ellipsis.
 */
export function errorText(error: unknown, max = Infinity): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
