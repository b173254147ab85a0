import { expect } from 'chai';
import { ConfigError } from './env-reader.js';
import { loadConfig } from './service-config.js';

const ACME = 'key-for-acme-000000';
const BETA = 'key-for-beta-000000';

const apiKeys = (value: string) => loadConfig({ CMS_API_KEYS: value }).auth.apiKeys;
const refusal = (value: string): string => {
  try {
    apiKeys(value);
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return (error as Error).message;
  }
  return expect.fail(`start-up accepted CMS_API_KEYS=${value}`);
};

describe('loadConfig: CMS_API_KEYS', () => {
  describe('when the list has empty entries', () => {
    it('reads it like every comma list: a trailing comma, or two in a row, is no entry', () => {
      expect(apiKeys(`${ACME}:acme,`)).to.deep.equal([{ key: ACME, tenantId: 'acme' }]);
      expect(apiKeys(` ${ACME}:acme , ,${BETA}:beta,`)).to.deep.equal([
        { key: ACME, tenantId: 'acme' },
        { key: BETA, tenantId: 'beta' },
      ]);
      // The same rule as CMS_CORS_ORIGINS and CMS_LANGUAGES.
      const config = loadConfig({ CMS_CORS_ORIGINS: 'https://app.example.com,', CMS_LANGUAGES: 'en,fr,' });
      expect([config.http.corsOrigins, config.languages]).to.deep.equal([['https://app.example.com'], ['en', 'fr']]);
    });

    it('refuses a list of nothing but commas, which registers no key', () => {
      expect(refusal(',')).to.equal('CMS_API_KEYS holds no key:tenantId pair; leave it empty or unset it for none');
    });
  });

  describe('when an entry is bad', () => {
    it('names the entry by its position and says what is wrong, never quoting the key', () => {
      expect(refusal(`${ACME}:acme,no-colon-here-0000000`)).to.equal(
        'CMS_API_KEYS entry 2 is not a key:tenantId pair; the value must be comma-separated key:tenantId pairs',
      );
      expect(refusal(`${ACME}:acme,,short:beta`)).to.equal('CMS_API_KEYS entry 3 has a key of 5 characters; keys must have at least 16');
      expect(refusal(`${'k'.repeat(15)}:acme`)).to.equal('CMS_API_KEYS entry 1 has a key of 15 characters; keys must have at least 16');
      expect(apiKeys(`${'k'.repeat(16)}:acme`)).to.deep.equal([{ key: 'k'.repeat(16), tenantId: 'acme' }]);
      expect(refusal(`:acme`)).to.match(/^CMS_API_KEYS entry 1 is not a key:tenantId pair/);
      expect(refusal(`${ACME}:Not_A_Tenant`)).to.equal(
        'CMS_API_KEYS entry 1 has an invalid tenant id (it must be 1 to 64 lowercase letters, digits and hyphens, starting with a letter or digit); is it written key:tenantId?',
      );
      expect(refusal('no-colon-here-0000000')).not.to.contain('no-colon-here');
    });

    it('does not quote a key written where the tenant id goes (a pair the wrong way round)', () => {
      const key = 'cms_v5c05489jloF9RrNpiWoq0zIHMTOV4wm_RxC0jrqNgo';
      const message = refusal(`customer-portal-prod:${key}`);
      expect(message).to.match(/^CMS_API_KEYS entry 1 has an invalid tenant id/);
      expect(message).not.to.contain(key);
    });

    it('refuses a key no request could present: over 512 characters, or with a character a header does not carry as is', () => {
      expect(apiKeys(`${'k'.repeat(512)}:acme`)).to.have.length(1);
      expect(refusal(`${'k'.repeat(513)}:acme`)).to.equal('CMS_API_KEYS entry 1 has a key of 513 characters; keys may have at most 512');
      const noRequestCouldSendIt = 'CMS_API_KEYS entry 1 has a key with a character other than printable ASCII (no spaces); no request could send it';
      expect(refusal('clé-secrète-0123456789:acme')).to.equal(noRequestCouldSendIt);
      expect(refusal('key with a space inside:acme')).to.equal(noRequestCouldSendIt);
      expect(refusal('key-with-a-tab\tinside-00:acme')).to.equal(noRequestCouldSendIt);
    });
  });

  describe('when one key is given to two tenants', () => {
    it('refuses it naming both entries, not the key', () => {
      const message = refusal(`${ACME}:acme,${BETA}:beta,${ACME}:gamma`);
      expect(message).to.equal('CMS_API_KEYS gives one key to two tenants (entries 1 and 3); a key belongs to one tenant');
      expect(message).not.to.contain(ACME);
    });

    it('takes a key written twice for one tenant once', () => {
      expect(apiKeys(`${ACME}:acme,${ACME}:acme`)).to.deep.equal([{ key: ACME, tenantId: 'acme' }]);
    });
  });
});
