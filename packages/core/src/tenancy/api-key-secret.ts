/**
 * API key material: generation, hashing and constant-time comparison. Keys are looked up by
 * their SHA-256, so the stored value reveals nothing and lookup time says nothing about the key.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_PREFIX = 'cms_';

export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** One-shot `crypto.hash`: a third of the cost of createHash().update().digest() per request. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** What a listing may show of a key: enough to recognise it, too little to use it. */
export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 6);
}
