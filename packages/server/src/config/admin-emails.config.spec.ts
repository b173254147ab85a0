import { expect } from 'chai';
import { ConfigError } from './env-reader.js';
import { loadConfig } from './service-config.js';

describe('loadAdminEmails (CMS_ADMIN_EMAILS)', () => {
  const KEYS = 'acme-key-0000000000:acme,beta-key-0000000000:beta';

  it('reads tenantId:address pairs for the tenants the service creates, each address once, a tenant in several pairs', () => {
    const config = loadConfig({ CMS_API_KEYS: KEYS, CMS_ADMIN_EMAILS: ' acme:ops@acme.test, beta:x@beta.test,acme:owner@acme.test,acme:ops@acme.test,' });
    expect([...config.adminEmails]).to.deep.equal([
      ['acme', ['ops@acme.test', 'owner@acme.test']],
      ['beta', ['x@beta.test']],
    ]);
    expect([...loadConfig({ CMS_ADMIN_EMAILS: 'default:me@example.test' }).adminEmails]).to.deep.equal([['default', ['me@example.test']]]);
    expect(loadConfig({}).adminEmails.size).to.equal(0);
  });

  it('stops start-up naming the variable and the entry for a pair it cannot take', () => {
    const refusals: Array<[Record<string, string>, string]> = [
      [{ CMS_ADMIN_EMAILS: 'ops@acme.test' }, 'CMS_ADMIN_EMAILS entry 1 is not a tenantId:address pair; the value must be comma-separated tenantId:address pairs'],
      [{ CMS_ADMIN_EMAILS: 'default:ok@x.test,default:not an address' }, 'CMS_ADMIN_EMAILS entry 2 has "not an address", which is not an e-mail address'],
      [{ CMS_ADMIN_EMAILS: 'default:Boss<evil@attacker.test>' }, 'CMS_ADMIN_EMAILS entry 1 has "Boss<evil@attacker.test>", which is not an e-mail address'],
      [{ CMS_ADMIN_EMAILS: 'default:a@b.test;root' }, 'CMS_ADMIN_EMAILS entry 1 has "a@b.test;root", which is not an e-mail address'],
      [{ CMS_API_KEYS: KEYS, CMS_ADMIN_EMAILS: 'default:me@x.test' }, 'CMS_ADMIN_EMAILS entry 1 names tenant "default", which the service does not create (acme, beta: the tenants of CMS_API_KEYS, else default)'],
      [{ CMS_ADMIN_EMAILS: ',,' }, 'CMS_ADMIN_EMAILS holds no pair; leave it empty or unset it for none'],
      [
        { MONGODB_URI: 'mongodb://db.test/cms', CMS_ADMIN_EMAILS: 'default:me@x.test' },
        'CMS_ADMIN_EMAILS is for the embedded store; on MongoDB a tenant keeps its addresses: set them with cms-admin tenant set-admin-emails',
      ],
      [{ CMS_ADMIN_EMAILS: Array.from({ length: 51 }, (_, i) => `default:a${i}@x.test`).join(',') }, 'CMS_ADMIN_EMAILS gives tenant "default" more than 50 addresses'],
    ];
    for (const [env, message] of refusals) expect(() => loadConfig(env), message).to.throw(ConfigError, message);
  });
});
