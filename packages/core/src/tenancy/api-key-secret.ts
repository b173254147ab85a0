/**
 * API key material: generation and hashing. Keys are looked up by their SHA-256, so the stored
 * value reveals nothing and lookup time says nothing about the key: what a timing difference
 * could reveal is the digest of the key the caller sent, which the caller already knows. That
 * is why no constant-time comparison follows the lookup (decision 0006).
 */
import { hash, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'cms_';

export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** One-shot `crypto.hash`: a third of the cost of createHash().update().digest() per request. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}
