import { expect } from 'chai';
import { ConfigError } from './env-reader.js';
import { loadConfig } from './service-config.js';

describe('loadConfig: AI settings', () => {
  describe('when nothing is set', () => {
    it('has no provider, a 100000-token monthly default', () => {
      expect(loadConfig({}).ai).to.deep.equal({ provider: undefined, tokenLimitMonthly: 100_000 });
    });
  });

  describe('when a provider is set', () => {
    it('reads the base URL, key, model, timeout and limit', () => {
      const config = loadConfig({
        AI_BASE_URL: ' https://api.openai.com/v1 ',
        AI_API_KEY: 'sk-abc',
        AI_MODEL: 'gpt-4o-mini',
        AI_TIMEOUT_MS: '15000',
        AI_TOKEN_LIMIT_MONTHLY: '0',
      });
      expect(config.ai).to.deep.equal({
        provider: { baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-abc', model: 'gpt-4o-mini', timeoutMs: 15_000 },
        tokenLimitMonthly: 0,
      });
    });

    it('needs no key and defaults the timeout to 30000 ms (Ollama)', () => {
      const config = loadConfig({ AI_BASE_URL: 'http://localhost:11434/v1', AI_MODEL: 'llama3.1:8b' });
      expect(config.ai.provider).to.deep.equal({ baseUrl: 'http://localhost:11434/v1', apiKey: undefined, model: 'llama3.1:8b', timeoutMs: 30_000 });
    });
  });

  describe('when a setting is bad', () => {
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ AI_BASE_URL: 'api.openai.com/v1', AI_MODEL: 'm' }, 'AI_BASE_URL', 'must be an http(s) URL'],
      [{ AI_BASE_URL: 'ftp://files.local/v1', AI_MODEL: 'm' }, 'AI_BASE_URL', 'must be an http(s) URL'],
      [{ AI_BASE_URL: 'https://user:pw@gw.local/v1', AI_MODEL: 'm' }, 'AI_BASE_URL', 'must not contain credentials'],
      [{ AI_BASE_URL: 'https://gw.local/v1' }, 'AI_MODEL', 'must be set when AI_BASE_URL is set'],
      [{ AI_TIMEOUT_MS: 'soon' }, 'AI_TIMEOUT_MS', 'must be a whole number from 100 to 600000'],
      [{ AI_TIMEOUT_MS: '99' }, 'AI_TIMEOUT_MS', 'must be a whole number from 100 to 600000'],
      [{ AI_TOKEN_LIMIT_MONTHLY: '-1' }, 'AI_TOKEN_LIMIT_MONTHLY', 'must be a whole number from 0'],
      [{ AI_TOKEN_LIMIT_MONTHLY: '1.5' }, 'AI_TOKEN_LIMIT_MONTHLY', 'must be a whole number from 0'],
    ];
    for (const [env, name, problem] of cases) {
      it(`stops with a message naming ${name} for ${JSON.stringify(env)}`, () => {
        expect(() => loadConfig(env)).to.throw(ConfigError, `${name} ${problem}`);
      });
    }

    it('never quotes a URL it refuses: it may carry a key', () => {
      for (const env of [
        { AI_BASE_URL: 'htps://user:sk-SECRET123@gw.example.com/v1', AI_MODEL: 'm' },
        { AI_BASE_URL: 'https://gw.example.com/v1?key=sk-SECRET123#x', AI_MODEL: 'm' },
        { CAPTCHA_RECAPTCHA_VERIFY_URL: 'https://u:SECRET123@verify.example.com/siteverify' },
        { CAPTCHA_HCAPTCHA_VERIFY_URL: 'https://verify.example.com/ SECRET123' },
      ]) {
        const message = (() => {
          try {
            loadConfig(env);
          } catch (error) {
            return (error as Error).message;
          }
          return 'accepted';
        })();
        expect(message, JSON.stringify(env)).to.match(/^(AI_BASE_URL|CAPTCHA_[A-Z]+_VERIFY_URL) must/);
        expect(message).not.to.contain('SECRET123');
      }
    });
  });
});
