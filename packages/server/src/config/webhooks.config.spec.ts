import { expect } from 'chai';
import { ConfigError } from './env-reader.js';
import { loadConfig } from './service-config.js';

describe('loadWebhooksConfig', () => {
  it('uses the documented defaults: 10 s timeout, guard on, settle after 5 minutes, batches of 50, 10 of them per webhook, 25 per tenant', () => {
    expect(loadConfig({}).webhooks).to.deep.equal({ timeoutMs: 10_000, allowPrivateNetworks: false, settleUnconfirmedAfterMs: 300_000, batchSize: 50, inFlightPerWebhook: 10, inFlightPerTenant: 25, leaseMs: 60_000 });
  });

  it('reads the settings and stretches the lease to three timeouts when that is longer than a minute', () => {
    const webhooks = loadConfig({ WEBHOOK_TIMEOUT_MS: '30000', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_SETTLE_AFTER_MS: '60000', WEBHOOK_BATCH_SIZE: '5', WEBHOOK_IN_FLIGHT_PER_WEBHOOK: '2' }).webhooks;
    expect(webhooks).to.deep.equal({ timeoutMs: 30_000, allowPrivateNetworks: true, settleUnconfirmedAfterMs: 60_000, batchSize: 5, inFlightPerWebhook: 2, inFlightPerTenant: 3, leaseMs: 90_000 });
    expect(loadConfig({ WEBHOOK_IN_FLIGHT_PER_TENANT: '7' }).webhooks.inFlightPerTenant).to.equal(7);
  });

  it('settles an unconfirmed event no sooner than a minute after it was staged', () => {
    expect(() => loadConfig({ WEBHOOK_SETTLE_AFTER_MS: '0' })).to.throw(ConfigError, 'WEBHOOK_SETTLE_AFTER_MS must be a whole number from 60000');
    expect(() => loadConfig({ WEBHOOK_SETTLE_AFTER_MS: '59999' })).to.throw(ConfigError, 'WEBHOOK_SETTLE_AFTER_MS');
    expect(loadConfig({ WEBHOOK_SETTLE_AFTER_MS: '60000' }).webhooks.settleUnconfirmedAfterMs).to.equal(60_000);
    // Not tied to the request timeout, which bounds reading a request, not how long its handler runs.
    expect(loadConfig({ CMS_REQUEST_TIMEOUT_MS: '600000' }).webhooks.settleUnconfirmedAfterMs).to.equal(300_000);
  });

  it('stops start-up naming the variable when a value is out of range', () => {
    expect(() => loadConfig({ WEBHOOK_TIMEOUT_MS: '5' })).to.throw(ConfigError, 'WEBHOOK_TIMEOUT_MS');
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'maybe' })).to.throw(ConfigError, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS');
    expect(() => loadConfig({ WEBHOOK_BATCH_SIZE: '0' })).to.throw(ConfigError, 'WEBHOOK_BATCH_SIZE');
    expect(() => loadConfig({ WEBHOOK_BATCH_SIZE: '501' })).to.throw(ConfigError, 'WEBHOOK_BATCH_SIZE');
    expect(() => loadConfig({ WEBHOOK_IN_FLIGHT_PER_WEBHOOK: '0' })).to.throw(ConfigError, 'WEBHOOK_IN_FLIGHT_PER_WEBHOOK');
    expect(() => loadConfig({ WEBHOOK_IN_FLIGHT_PER_TENANT: '0' })).to.throw(ConfigError, 'WEBHOOK_IN_FLIGHT_PER_TENANT');
  });
});
