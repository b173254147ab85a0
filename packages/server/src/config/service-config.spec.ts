import { expect } from 'chai';
import { ConfigError } from './env-reader.js';
import { loadConfig } from './service-config.js';

describe('loadConfig', () => {
  describe('when nothing is set', () => {
    it('uses the documented defaults and the embedded store', () => {
      const config = loadConfig({});
      expect(config.http).to.include({ host: '127.0.0.1', port: 3000, basePath: '/cms', bodyLimitBytes: 1024 * 1024 });
      expect(config.storage).to.deep.equal({ kind: 'memory' });
      expect(config.languages).to.deep.equal(['en', 'ar', 'fr', 'es', 'de']);
      expect(config.auth.apiKeys).to.deep.equal([]);
    });
  });

  describe('when settings are given', () => {
    it('reads keys, languages, body limit and MongoDB with the database from the URI or MONGODB_DB', () => {
      const config = loadConfig({
        CMS_API_KEYS: 'key-for-acme-000000:acme, key-for-beta-000000:beta',
        CMS_LANGUAGES: 'en,fr,en',
        CMS_BODY_LIMIT: '512kb',
        MONGODB_URI: 'mongodb://db.local:27017/cms_prod?replicaSet=rs0',
      });
      expect(config.auth.apiKeys).to.deep.equal([
        { key: 'key-for-acme-000000', tenantId: 'acme' },
        { key: 'key-for-beta-000000', tenantId: 'beta' },
      ]);
      expect(config.languages).to.deep.equal(['en', 'fr']);
      expect(config.http.bodyLimitBytes).to.equal(512 * 1024);
      expect(config.storage).to.deep.equal({ kind: 'mongo', uri: 'mongodb://db.local:27017/cms_prod?replicaSet=rs0', database: 'cms_prod' });
      expect(loadConfig({ MONGODB_URI: 'mongodb://h', MONGODB_DB: 'other' }).storage).to.include({ database: 'other' });
      expect(loadConfig({ MONGODB_URI: 'mongodb://h' }).storage).to.include({ database: 'cms' });
      expect(loadConfig({ MONGODB_URI: '  ' }).storage.kind).to.equal('memory');
    });
  });

  describe('when a setting is bad', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ PORT: 'eighty' }, 'PORT'],
      [{ PORT: '70000' }, 'PORT'],
      [{ CMS_BASE_PATH: 'cms/' }, 'CMS_BASE_PATH'],
      [{ CMS_BODY_LIMIT: 'lots' }, 'CMS_BODY_LIMIT'],
      [{ CMS_API_KEYS: 'short:acme' }, 'CMS_API_KEYS'],
      [{ CMS_API_KEYS: 'long-enough-key-0000:Not_A_Tenant' }, 'CMS_API_KEYS'],
      [{ CMS_LANGUAGES: 'en,English' }, 'CMS_LANGUAGES'],
      [{ LOG_LEVEL: 'chatty' }, 'LOG_LEVEL'],
      [{ CMS_REQUEST_LOG: 'maybe' }, 'CMS_REQUEST_LOG'],
    ];
    for (const [env, name] of cases) {
      it(`stops with a message naming ${name} for ${JSON.stringify(env)}`, () => {
        expect(() => loadConfig(env)).to.throw(ConfigError, new RegExp(`^${name} `));
      });
    }
  });
});
