/**
 * Drawn test cases that are the same on every run: a failure names its case, and running again
 * meets it again.
 */

/** Numbers in [0, 1) from a linear congruential generator started at `seed`. */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

/** A text of fewer than `maxLength` characters, each drawn from `alphabet`. */
export function randomText(random: () => number, alphabet: string, maxLength: number): string {
  let text = '';
  for (let n = Math.floor(random() * maxLength); n > 0; n -= 1) text += alphabet[Math.floor(random() * alphabet.length)];
  return text;
}
