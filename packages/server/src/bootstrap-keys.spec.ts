import { expect } from 'chai';
import { ManageTenants, ManualClock, memoryStores, silentLogger } from '@cms/core';
import { CapturingLogger } from './testing/test-service.js';
import { bootstrapKeys } from './bootstrap-keys.js';
import { ConfigError } from './config/env-reader.js';
import { loadConfig } from './config/service-config.js';

describe('bootstrapKeys', () => {
  const KEY = 'shared-key-0000000000';

  describe('when CMS_API_KEYS gives a tenant a key the store holds for another tenant', () => {
    it('stops start-up with a configuration error naming CMS_API_KEYS, without quoting the key', async () => {
      // What a MongoDB store keeps from an earlier CMS_API_KEYS, or from cms-admin.
      const stores = memoryStores();
      const manage = new ManageTenants(stores.tenants, stores.apiKeys, new ManualClock());
      await manage.createTenant('acme');
      await manage.registerKey('acme', KEY);
      const refusal = await bootstrapKeys(loadConfig({ CMS_API_KEYS: `${KEY}:beta` }), manage, silentLogger).then(
        () => expect.fail('start-up accepted the key'),
        (error: unknown) => error,
      );
      expect(refusal).to.be.instanceOf(ConfigError);
      expect((refusal as Error).message).to.equal(
        'CMS_API_KEYS gives tenant "beta" a key the store already holds for another tenant; a key belongs to one tenant, also once revoked: give "beta" another key',
      );
      expect((refusal as Error).message).not.to.contain(KEY);
      expect(await stores.tenants.findById('beta'), 'a refused start-up creates no tenant').to.equal(null);
    });
  });

  describe('when the store holds the key for the same tenant, revoked', () => {
    it('starts, and warns that the key is refused on every request, without quoting it', async () => {
      const stores = memoryStores();
      const manage = new ManageTenants(stores.tenants, stores.apiKeys, new ManualClock());
      await manage.createTenant('acme');
      const record = await manage.registerKey('acme', KEY);
      await manage.revokeKey(record.id);
      const logger = new CapturingLogger();
      expect(await bootstrapKeys(loadConfig({ CMS_API_KEYS: `${KEY}:acme` }), manage, logger)).to.deep.equal({ generatedKey: undefined });
      const warned = logger.lines.filter((line) => line.level === 'warn');
      expect(warned.map((line) => line.message)).to.deep.equal(['CMS_API_KEYS holds a revoked key; it is refused on every request: remove it from CMS_API_KEYS']);
      expect(warned[0]).to.include({ tenantId: 'acme', keyId: record.id });
      expect(JSON.stringify(logger.lines)).not.to.contain(KEY);
    });
  });

  describe('when the store holds the key for the same tenant', () => {
    it('keeps it (a restart with the same CMS_API_KEYS)', async () => {
      const stores = memoryStores();
      const manage = new ManageTenants(stores.tenants, stores.apiKeys, new ManualClock());
      const config = loadConfig({ CMS_API_KEYS: `${KEY}:acme` });
      await bootstrapKeys(config, manage, silentLogger);
      expect(await bootstrapKeys(config, manage, silentLogger)).to.deep.equal({ generatedKey: undefined });
      expect(await stores.apiKeys.listByTenant('acme')).to.have.length(1);
    });
  });
});
