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
      // CONTRACT §8's timeouts and docs/operations.md's grace; §0's request log, on by default.
      expect(config.http).to.include({ headersTimeoutMs: 20_000, requestTimeoutMs: 60_000, shutdownGraceMs: 10_000 });
      expect(config.logging).to.include({ level: 'info', requests: true });
    });
  });

  describe('when a setting is at the edge of what it takes', () => {
    it('takes a cursor secret of 32 bytes and refuses 31, a headers timeout equal to the request timeout and not one longer', () => {
      expect(loadConfig({ CMS_CURSOR_SECRET: 'x'.repeat(32) }).auth.cursorSecret).to.equal('x'.repeat(32));
      expect(() => loadConfig({ CMS_CURSOR_SECRET: 'x'.repeat(31) })).to.throw(ConfigError, 'CMS_CURSOR_SECRET');
      expect(loadConfig({ CMS_HEADERS_TIMEOUT_MS: '5000', CMS_REQUEST_TIMEOUT_MS: '5000' }).http).to.include({ headersTimeoutMs: 5000, requestTimeoutMs: 5000 });
      expect(() => loadConfig({ CMS_HEADERS_TIMEOUT_MS: '5001', CMS_REQUEST_TIMEOUT_MS: '5000' })).to.throw(ConfigError, 'CMS_HEADERS_TIMEOUT_MS');
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
      // Options with no path name no database, whatever they hold.
      expect(loadConfig({ MONGODB_URI: 'mongodb://h:27017?appName=cms/prod', MONGODB_DB: 'cms_prod' }).storage).to.include({ database: 'cms_prod' });
      expect(loadConfig({ MONGODB_URI: 'mongodb://h?replicaSet=rs0&tls=true&tlsCAFile=/etc/ssl/ca.pem' }).storage).to.include({ database: 'cms' });
      expect(loadConfig({ MONGODB_URI: 'mongodb+srv://cluster.example.net/?retryWrites=true' }).storage).to.include({ database: 'cms' });
      expect(loadConfig({ MONGODB_URI: '' }).storage.kind).to.equal('memory');
    });

    it('reads CORS origins as a browser writes them: lower case, without the default port', () => {
      const config = loadConfig({ CMS_CORS_ORIGINS: 'https://App.Example.com,https://b.example:443,http://c.example:80,http://d.example:8080,https://app.example.com' });
      expect(config.http.corsOrigins).to.deep.equal(['https://app.example.com', 'https://b.example', 'http://c.example', 'http://d.example:8080']);
      expect(loadConfig({ CMS_CORS_ORIGINS: '*' }).http.corsOrigins).to.deep.equal(['*']);
    });

    it('takes an origin whose host is an IPv6 literal, as a browser sends it, and refuses a malformed one', () => {
      expect(loadConfig({ CMS_CORS_ORIGINS: 'http://[::1]:8080,https://[0:0:0:0:0:0:0:1],http://[2001:DB8::7]' }).http.corsOrigins).to.deep.equal([
        'http://[::1]:8080',
        'https://[::1]',
        'http://[2001:db8::7]',
      ]);
      for (const origin of ['http://[::1', 'http://[zz::1]', 'http://[:::]']) {
        expect(() => loadConfig({ CMS_CORS_ORIGINS: origin }), origin).to.throw(ConfigError, 'CMS_CORS_ORIGINS');
      }
    });

    it('takes any IP address or host name for HOST', () => {
      for (const host of ['0.0.0.0', '::', '::1', '10.1.2.3', 'localhost', 'cms.example.com.', 'cms_service']) {
        expect(loadConfig({ HOST: host }).http.host, host).to.equal(host);
      }
    });
  });

  describe('when a comma list holds nothing but commas, or a value holds a line break', () => {
    it('refuses each comma list alike, naming it', () => {
      expect(() => loadConfig({ CMS_CORS_ORIGINS: ',' })).to.throw(ConfigError, 'CMS_CORS_ORIGINS holds no origin; leave it empty or unset it for none');
      expect(() => loadConfig({ CMS_LANGUAGES: ' , ' })).to.throw(ConfigError, 'CMS_LANGUAGES holds no language code');
      expect(() => loadConfig({ CMS_API_KEYS: ',' })).to.throw(ConfigError, 'CMS_API_KEYS holds no key:tenantId pair');
    });

    it('keeps the refusal on one line, the break written as \\n', () => {
      const message = (() => {
        try {
          loadConfig({ LOG_LEVEL: 'info\nFAKE: injected' });
        } catch (error) {
          return (error as Error).message;
        }
        return '';
      })();
      expect(message).to.equal('LOG_LEVEL must be one of debug, info, warn, error (got "info\\nFAKE: injected")');
      expect(message).not.to.contain('\n');
    });
  });

  describe('when CMS_SOCKET_IDLE_TIMEOUT_MS is set or not', () => {
    const ai = { AI_BASE_URL: 'http://127.0.0.1:9/v1', AI_MODEL: 'm' };
    it('defaults to 120 s, or 10 s past a longer AI_TIMEOUT_MS, and takes a setting longer than the AI timeout', () => {
      expect(loadConfig({}).http.stalledSocketMs).to.equal(120_000);
      expect(loadConfig({ ...ai, AI_TIMEOUT_MS: '300000' }).http.stalledSocketMs).to.equal(310_000);
      expect(loadConfig({ ...ai, CMS_SOCKET_IDLE_TIMEOUT_MS: '45000' }).http.stalledSocketMs).to.equal(45_000);
    });

    it('refuses one that would cut a request waiting on the AI or CAPTCHA provider, naming both variables', () => {
      const refusal = (() => {
        try {
          loadConfig({ ...ai, AI_TIMEOUT_MS: '30000', CMS_SOCKET_IDLE_TIMEOUT_MS: '30000' });
        } catch (error) {
          return error;
        }
        return undefined;
      })();
      expect(refusal).to.be.instanceOf(ConfigError);
      expect((refusal as Error).message).to.equal(
        'CMS_SOCKET_IDLE_TIMEOUT_MS must be longer than AI_TIMEOUT_MS (30000 <= 30000): a translation waiting on the provider would be cut',
      );
      expect(() => loadConfig({ CMS_SOCKET_IDLE_TIMEOUT_MS: '5000' })).to.throw(ConfigError, 'CMS_SOCKET_IDLE_TIMEOUT_MS must be longer than CAPTCHA_TIMEOUT_MS (5000 <= 5000)');
    });
  });

  describe('when a setting is bad', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ PORT: 'eighty' }, 'PORT'],
      [{ PORT: '70000' }, 'PORT'],
      [{ CMS_BASE_PATH: 'cms/' }, 'CMS_BASE_PATH'],
      [{ CMS_BODY_LIMIT: 'lots' }, 'CMS_BODY_LIMIT'],
      [{ CMS_BODY_LIMIT: '65mb' }, 'CMS_BODY_LIMIT'],
      [{ CMS_BODY_LIMIT: `${8 * 1024 * 1024 + 1}`, MONGODB_URI: 'mongodb://db.local/cms' }, 'CMS_BODY_LIMIT'],
      [{ CMS_API_KEYS: 'short:acme' }, 'CMS_API_KEYS'],
      [{ CMS_API_KEYS: 'long-enough-key-0000:Not_A_Tenant' }, 'CMS_API_KEYS'],
      [{ CMS_LANGUAGES: 'en,English' }, 'CMS_LANGUAGES'],
      [{ LOG_LEVEL: 'chatty' }, 'LOG_LEVEL'],
      [{ CMS_REQUEST_LOG: 'maybe' }, 'CMS_REQUEST_LOG'],
      [{ CMS_CORS_ORIGINS: 'https://app.example.com:70000' }, 'CMS_CORS_ORIGINS'],
      [{ CMS_CORS_ORIGINS: 'https://app.example.com/path' }, 'CMS_CORS_ORIGINS'],
      [{ HOST: '999.1.1.1' }, 'HOST'],
      [{ HOST: 'cms host' }, 'HOST'],
      [{ HOST: '[::1]' }, 'HOST'],
      [{ MONGODB_URI: 'notamongo' }, 'MONGODB_URI'],
      [{ MONGODB_URI: 'mongodb://' }, 'MONGODB_URI'],
      [{ MONGODB_URI: 'mongodb://db.local:abc/cms' }, 'MONGODB_URI'],
      [{ MONGODB_URI: 'mongodb://db.local/cms?noSuchOption=1' }, 'MONGODB_URI'],
      [{ MONGODB_URI: 'mongodb://db.local/cms.prod' }, 'MONGODB_URI'],
      [{ MONGODB_URI: 'mongodb://db.local/cms?w=0' }, 'MONGODB_URI'],
      [{ MONGODB_URI: 'mongodb://db.local', MONGODB_DB: 'bad.name' }, 'MONGODB_DB'],
      [{ MONGODB_URI: 'mongodb://db.local', MONGODB_DB: 'x'.repeat(64) }, 'MONGODB_DB'],
      [{ MONGODB_DB: 'cms$prod' }, 'MONGODB_DB'],
    ];
    for (const [env, name] of cases) {
      it(`stops with a message naming ${name} for ${JSON.stringify(env)}`, () => {
        expect(() => loadConfig(env)).to.throw(ConfigError, new RegExp(`^${name} `));
      });
    }

    it('takes a body limit up to 64mb on the embedded store and up to 8mb on MongoDB, saying why', () => {
      expect(loadConfig({ CMS_BODY_LIMIT: '64mb' }).http.bodyLimitBytes).to.equal(64 * 1024 * 1024);
      expect(loadConfig({ CMS_BODY_LIMIT: '8mb', MONGODB_URI: 'mongodb://db.local/cms' }).http.bodyLimitBytes).to.equal(8 * 1024 * 1024);
      expect(() => loadConfig({ CMS_BODY_LIMIT: '9mb', MONGODB_URI: 'mongodb://db.local/cms' })).to.throw(
        ConfigError,
        'CMS_BODY_LIMIT must be at most 8mb with MONGODB_URI (got 9437184 bytes): a MongoDB document holds 16 MiB at most, and a form or a submission is one',
      );
    });

    it('refuses a secret or a storage setting of whitespace only instead of reading it as unset', () => {
      // A blank secret used to turn bearer tokens off, a blank MONGODB_URI to pick the embedded store.
      for (const name of ['CMS_JWT_SECRET', 'CMS_JWT_PUBLIC_KEY', 'CMS_CURSOR_SECRET', 'CAPTCHA_TURNSTILE_SECRET', 'CMS_API_KEYS', 'MONGODB_URI', 'MONGODB_DB']) {
        expect(() => loadConfig({ [name]: '   ' }), name).to.throw(ConfigError, new RegExp(`^${name} is only whitespace: `));
      }
    });

    it('says what is wrong with MONGODB_URI without quoting it or its password', () => {
      const uri = 'mongodb://admin:hunter2-pw@db.local:abc/cms';
      expect(() => loadConfig({ MONGODB_URI: uri }))
        .to.throw(ConfigError, 'MONGODB_URI must be a connection string such as mongodb://host:27017/cms: Unable to parse db.local:abc with URL')
        .with.property('message')
        .that.does.not.contain('hunter2');
      expect(() => loadConfig({ MONGODB_URI: 'mongodb://admin:hunter2/pw@db.local/cms' }))
        .to.throw(ConfigError, /^MONGODB_URI .*user name or password cannot be read/)
        .with.property('message')
        .that.does.not.contain('hunter2');
    });

    it('refuses writes nobody acknowledges, and takes any other write concern the string names', () => {
      expect(() => loadConfig({ MONGODB_URI: 'mongodb://db.local/cms?replicaSet=rs0&w=0' })).to.throw(
        ConfigError,
        'MONGODB_URI sets w=0 (writes nobody acknowledges): the service answers that a write succeeded only once MongoDB has acknowledged it; leave w out (the service asks for w=majority) or set it to 1 or more',
      );
      for (const w of ['1', '2', 'majority']) {
        expect(loadConfig({ MONGODB_URI: `mongodb://db.local/cms?w=${w}` }).storage, w).to.include({ kind: 'mongo' });
      }
    });

    it('says which rule a database name breaks, and the rules', () => {
      expect(() => loadConfig({ MONGODB_URI: 'mongodb://db.local', MONGODB_DB: 'bad.name' })).to.throw(
        ConfigError,
        `MONGODB_DB contains '.' (got "bad.name"); a MongoDB database name has 1 to 63 bytes and none of / \\ . " $, space or NUL`,
      );
      expect(() => loadConfig({ MONGODB_URI: 'mongodb://db.local/cms%2Eprod' })).to.throw(ConfigError, `MONGODB_URI names the database "cms.prod", which contains '.'`);
    });
  });
});
