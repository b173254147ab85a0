/**
 * Sends webhook deliveries: one POST over node:http(s), bounded by WEBHOOK_TIMEOUT_MS from the
 * first byte sent to the last byte of the answer, redirects never followed (a 3xx is just a
 * status). The SSRF guard runs again here, inside the connection's own DNS lookup, so the
 * address checked is the address connected to (no window for DNS to change in between).
 * Errors never repeat the URL, which may carry a token.
 */
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { WebhookAddressRefused, type WebhookRequest, type WebhookSender } from '@cms/core';
import { errorText } from '@cms/core/internal';
import { isRefusedAddress } from './refused-addresses.js';
import { hostOf, systemResolver, type AddressPolicy } from './webhook-url.guard.js';

export interface WebhookHttpSettings extends AddressPolicy {
  readonly timeoutMs: number;
}

export class HttpWebhookSender implements WebhookSender {
  constructor(private readonly settings: WebhookHttpSettings) {}

  async send({ url, headers, body }: WebhookRequest): Promise<{ statusCode: number }> {
    const target = new URL(url);
    const { allowPrivateNetworks, timeoutMs } = this.settings;
    const host = hostOf(target);
    if (!allowPrivateNetworks && isIP(host) && isRefusedAddress(host)) throw new WebhookAddressRefused();
    let refused = false;
    const guardedLookup: LookupFunction = (hostname, options, callback) => {
      (this.settings.resolve ?? systemResolver)(hostname).then(
        (addresses) => {
          if (!allowPrivateNetworks && (addresses.length === 0 || addresses.some(isRefusedAddress))) {
            refused = true;
            return callback(new WebhookAddressRefused(), '', 0);
          }
          const entries = addresses.map((address) => ({ address, family: isIP(address) }));
          if (options.all) return (callback as unknown as (error: null, all: typeof entries) => void)(null, entries);
          callback(null, entries[0]!.address, entries[0]!.family);
        },
        (error: NodeJS.ErrnoException) => callback(error, '', 0),
      );
    };
    // A timer cleared once the answer is in, not AbortSignal.timeout: that one lives its full
    // timeout after every delivery, thousands of them at a time under load (the soak saw it in RSS).
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), timeoutMs);
    const options: RequestOptions = {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      signal: deadline.signal,
      lookup: guardedLookup,
    };
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    try {
      return await new Promise((resolve, reject) => {
        const req = send(target, options, (res) => {
          // The status line is the answer (§7: a 2xx within the timeout is delivered). The body is
          // drained, not kept, and one still coming at the deadline is cut there: it changes nothing,
          // where waiting for it made a receiver that had taken the event get it again.
          res.on('error', () => {});
          res.on('close', () => clearTimeout(timer));
          res.resume();
          resolve({ statusCode: res.statusCode ?? 0 });
        });
        req.on('error', reject);
        req.end(body);
      });
    } catch (error) {
      clearTimeout(timer);
      if (refused) throw new WebhookAddressRefused();
      if (options.signal?.aborted) throw new Error(`webhook receiver gave no answer within ${timeoutMs} ms`);
      const code = (error as NodeJS.ErrnoException).code;
      throw new Error(`webhook receiver unreachable (${code ?? (errorText(error))})`);
    }
  }
}
