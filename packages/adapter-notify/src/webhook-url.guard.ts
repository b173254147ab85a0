/**
 * The SSRF guard at create and update time: a URL is allowed when its host is a public address,
 * or a name whose every resolved address is public. A name that does not resolve is refused
 * (nothing could be checked). `allowPrivateNetworks` (WEBHOOK_ALLOW_PRIVATE_NETWORKS) lifts it.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { WebhookUrlGuard } from '@cms/core';
import { isRefusedAddress } from './refused-addresses.js';

/** Every address a host name resolves to (the system resolver, as connections use it). */
export type HostResolver = (hostname: string) => Promise<string[]>;

export const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export interface AddressPolicy {
  readonly allowPrivateNetworks: boolean;
  /** Default: the system resolver. Tests hand in a table. */
  readonly resolve?: HostResolver;
}

/** The URL's host as an address or a name, without IPv6 brackets. */
export function hostOf(url: URL): string {
  const host = url.hostname;
  return host.startsWith('[') ? host.slice(1, -1) : host;
}

export class AddressWebhookUrlGuard implements WebhookUrlGuard {
  readonly #resolve: HostResolver;

  constructor(private readonly policy: AddressPolicy) {
    this.#resolve = policy.resolve ?? systemResolver;
  }

  async isAllowed(url: string): Promise<boolean> {
    if (this.policy.allowPrivateNetworks) return true;
    let host: string;
    try {
      host = hostOf(new URL(url));
    } catch {
      return false;
    }
    if (isIP(host)) return !isRefusedAddress(host);
    try {
      const addresses = await this.#resolve(host);
      return addresses.length > 0 && !addresses.some(isRefusedAddress);
    } catch {
      return false;
    }
  }
}
