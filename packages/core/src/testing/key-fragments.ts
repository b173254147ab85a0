/**
 * The pieces of an API key that a text shows in clear (a stored record as JSON, a listing): every
 * run of 6 characters of the key found in the text. A longer piece contains such a run, so an
 * empty answer means no piece of 6 characters or more is there (decision 0789).
 */
export function keyFragmentsIn(text: string, key: string): string[] {
  const found = new Set<string>();
  for (let start = 0; start + 6 <= key.length; start += 1) {
    const fragment = key.slice(start, start + 6);
    if (text.includes(fragment)) found.add(fragment);
  }
  return [...found];
}
