import { expect } from 'chai';
import { ConfigError } from './env-reader.js';
import { loadConfig } from './service-config.js';

describe('loadEngagementConfig', () => {
  describe('when nothing is set', () => {
    it('allows 30 guest writes per 600 seconds and asks a CAPTCHA score of 0.5', () => {
      expect(loadConfig({}).engagement).to.deep.equal({ limit: 30, windowSeconds: 600, minCaptchaScore: 0.5 });
    });
  });

  describe('when the settings are given', () => {
    it('uses them', () => {
      const config = loadConfig({ GUEST_REACTION_LIMIT: '5', GUEST_REACTION_WINDOW_SECONDS: '60', GUEST_CAPTCHA_MIN_SCORE: '0' });
      expect(config.engagement).to.deep.equal({ limit: 5, windowSeconds: 60, minCaptchaScore: 0 });
    });
  });

  describe('when a setting is bad', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ GUEST_REACTION_LIMIT: '0' }, 'GUEST_REACTION_LIMIT'],
      [{ GUEST_REACTION_LIMIT: 'lots' }, 'GUEST_REACTION_LIMIT'],
      [{ GUEST_REACTION_WINDOW_SECONDS: '-1' }, 'GUEST_REACTION_WINDOW_SECONDS'],
      [{ GUEST_CAPTCHA_MIN_SCORE: '1.5' }, 'GUEST_CAPTCHA_MIN_SCORE'],
      [{ GUEST_CAPTCHA_MIN_SCORE: 'high' }, 'GUEST_CAPTCHA_MIN_SCORE'],
    ];
    for (const [env, name] of cases) {
      it(`stops with a message naming ${name} for ${JSON.stringify(env)}`, () => {
        expect(() => loadConfig(env)).to.throw(ConfigError, new RegExp(`^${name} `));
      });
    }
  });
});
