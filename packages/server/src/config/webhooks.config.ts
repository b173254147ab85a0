/** Webhook delivery settings (CONTRACT §7); retries follow the NOTIFY_* back-off of notifications. */
import { DEFAULT_WEBHOOK_DISPATCH as DEFAULTS, tenantShareOf } from '@cms/core';
import type { EnvReader } from './env-reader.js';

export interface WebhooksConfig {
  /** WEBHOOK_TIMEOUT_MS: longest one delivery (connect, send, read the answer) may take. */
  readonly timeoutMs: number;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: lifts the SSRF guard (local development, tests). */
  readonly allowPrivateNetworks: boolean;
  /** WEBHOOK_SETTLE_AFTER_MS: an event still unconfirmed this long after staging is settled from the store. */
  readonly settleUnconfirmedAfterMs: number;
  /**
   * WEBHOOK_BATCH_SIZE: most deliveries in flight at once; a pass claims only the places free and
   * the next starts as soon as one is, so this is how far the dispatcher keeps pace with events
   * while the same process serves requests (decisions 0786, 0815).
   */
  readonly batchSize: number;
  /**
   * WEBHOOK_IN_FLIGHT_PER_WEBHOOK: most of those places one webhook holds while other webhooks'
   * deliveries are due, so a receiver that hangs, or a webhook with a backlog, cannot take them
   * all; claims take turns between webhooks (decision 0817).
   */
  readonly inFlightPerWebhook: number;
  /**
   * WEBHOOK_IN_FLIGHT_PER_TENANT: most of those places the webhooks of one tenant hold together
   * (default: half of WEBHOOK_BATCH_SIZE, rounded up), so a tenant with many webhooks whose
   * receivers hang cannot take them all from other tenants (decision 0823).
   */
  readonly inFlightPerTenant: number;
  /** A claim outlives any live send by far, so no delivery is claimed twice while being sent. */
  readonly leaseMs: number;
}

/**
 * An event is settled from the store at least a minute after it was staged: sooner, a write still
 * on its way is judged not to have happened and its event discarded, though its caller is then
 * told 201 (WEBHOOK_SETTLE_AFTER_MS=0 did so for every write slower than a dispatch pass; decision
 * 0780). A minute is beyond any write's store calls (the driver gives up selecting a server after 30 s).
 */
export function loadWebhooksConfig(read: EnvReader): WebhooksConfig {
  const timeoutMs = read.int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000);
  const batchSize = read.int('WEBHOOK_BATCH_SIZE', DEFAULTS.batchSize, 1, 500);
  const settleUnconfirmedAfterMs = read.int('WEBHOOK_SETTLE_AFTER_MS', DEFAULTS.settleUnconfirmedAfterMs, 60_000, 86_400_000);
  return {
    timeoutMs,
    allowPrivateNetworks: read.flag('WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
    settleUnconfirmedAfterMs,
    batchSize,
    inFlightPerWebhook: read.int('WEBHOOK_IN_FLIGHT_PER_WEBHOOK', DEFAULTS.inFlightPerWebhook, 1, 500),
    inFlightPerTenant: read.int('WEBHOOK_IN_FLIGHT_PER_TENANT', tenantShareOf(batchSize), 1, 500),
    leaseMs: Math.max(60_000, 3 * timeoutMs),
  };
}
