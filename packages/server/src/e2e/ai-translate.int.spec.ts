/** §2.4 over HTTP: POST /ai/translate against a local chat-completions server. */
import { expect } from 'chai';
import { chatCompletion, FakeChatCompletionsServer, type FakeChatReply } from '@cms/adapter-ai/testing';
import { GetAiUsage, ManageTenants, ManualClock } from '@cms/core';
import { startTestService, TEST_KEYS, TEST_TENANTS, type TestService } from '../testing/test-service.js';
import { TRANSLATE_REFUSALS } from './invalid-inputs.js';

const FAILED = { success: false, statusCode: 502, message: 'AI provider request failed', data: null };

describe('POST /ai/translate', () => {
  let provider: FakeChatCompletionsServer;
  let api: TestService;
  let clock: ManualClock;
  beforeEach(async () => {
    provider = await FakeChatCompletionsServer.start();
    clock = new ManualClock('2026-03-31T23:00:00.000Z');
    api = await startTestService(
      {
        AI_BASE_URL: provider.baseUrl,
        AI_API_KEY: 'sk-e2e-key',
        AI_MODEL: 'test-model',
        AI_TIMEOUT_MS: '200',
        AI_TOKEN_LIMIT_MONTHLY: '100',
        CMS_LANGUAGES: 'en,fr,de',
      },
      { clock },
    );
  });
  afterEach(async () => {
    await api.stop();
    await provider.close();
  });

  const translate = (body: unknown, key: string = TEST_KEYS.a) => api.call('POST', '/ai/translate', { body, key });
  /** The provider answers every call with `content`, charging `tokens`. */
  const charge = (tokens: number, content = 'Bonjour') => {
    provider.script = () => ({ json: chatCompletion(content, tokens) });
  };
  const answer = (reply: FakeChatReply) => {
    provider.script = () => reply;
  };
  const usedByA = async () => (await api.service.container.get(GetAiUsage).execute(TEST_TENANTS.a)).used;

  describe('when the provider translates', () => {
    it('answers 200 OK with the trimmed content and this month’s usage, and sends the provider what it needs', async () => {
      charge(30, '  Bonjour le monde\n');
      const res = await translate({ text: 'Hello world', targetLanguage: 'fr', sourceLanguage: 'en' });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({
        success: true,
        statusCode: 200,
        message: 'OK',
        data: { content: 'Bonjour le monde', tokens: { used: 30, remaining: 70, limit: 100 } },
      });
      const [received] = provider.requests;
      expect(provider.requests).to.have.length(1);
      expect(received!.path).to.equal('/v1/chat/completions');
      expect(received!.headers.authorization).to.equal('Bearer sk-e2e-key');
      expect(received!.body.model).to.equal('test-model');
      expect(received!.body.messages[0].content).to.contain('from English (en) into French (fr)');
      expect(received!.body.messages[1]).to.deep.equal({ role: 'user', content: 'Hello world' });
    });

    it('adds each call to the month’s usage', async () => {
      charge(30);
      await translate({ text: 'One', targetLanguage: 'fr' });
      charge(25);
      const res = await translate({ text: 'Two', targetLanguage: 'de' });
      expect(res.body.data.tokens).to.deep.equal({ used: 55, remaining: 45, limit: 100 });
    });

    it('lets the provider detect the language when sourceLanguage is absent or null', async () => {
      const res = await translate({ text: 'Hallo', targetLanguage: 'en', sourceLanguage: null });
      expect(res.status).to.equal(200);
      expect(provider.requests[0]!.body.messages[0].content).to.contain('Detect the language');
    });

    it('accepts a text of exactly 20000 characters', async () => {
      const res = await translate({ text: 'a'.repeat(20_000), targetLanguage: 'fr' });
      expect(res.status).to.equal(200);
      expect(provider.requests[0]!.body.messages[1].content).to.have.length(20_000);
    });
  });

  describe('when the quota is reached', () => {
    it('answers 429 once used equals the limit exactly, without calling the provider', async () => {
      charge(100);
      const first = await translate({ text: 'Hello', targetLanguage: 'fr' });
      expect(first.body.data.tokens).to.deep.equal({ used: 100, remaining: 0, limit: 100 });
      const refused = await translate({ text: 'Hello', targetLanguage: 'fr' });
      expect(refused.status).to.equal(429);
      expect(refused.body).to.deep.equal({ success: false, statusCode: 429, message: 'AI token quota exceeded', data: null });
      expect(provider.requests).to.have.length(1);
    });

    it('lets the last call below the limit through, charges all of it, then answers 429', async () => {
      charge(90);
      await translate({ text: 'Hello', targetLanguage: 'fr' });
      charge(30);
      const past = await translate({ text: 'Hello', targetLanguage: 'fr' });
      expect(past.status).to.equal(200);
      expect(past.body.data.tokens).to.deep.equal({ used: 120, remaining: 0, limit: 100 });
      expect((await translate({ text: 'Hello', targetLanguage: 'fr' })).status).to.equal(429);
    });

    it('uses the tenant’s own limit instead of AI_TOKEN_LIMIT_MONTHLY', async () => {
      await api.service.container.get(ManageTenants).setAiTokenLimit(TEST_TENANTS.a, 20);
      charge(20);
      expect((await translate({ text: 'Hello', targetLanguage: 'fr' })).body.data.tokens).to.deep.equal({ used: 20, remaining: 0, limit: 20 });
      expect((await translate({ text: 'Hello', targetLanguage: 'fr' })).status).to.equal(429);
      charge(5);
      const other = await translate({ text: 'Hello', targetLanguage: 'fr' }, TEST_KEYS.b);
      expect(other.body.data.tokens).to.deep.equal({ used: 5, remaining: 95, limit: 100 });
    });

    it('keeps tenants apart: one tenant’s exhausted quota does not stop another', async () => {
      charge(100);
      await translate({ text: 'Hello', targetLanguage: 'fr' });
      expect((await translate({ text: 'Hello', targetLanguage: 'fr' })).status).to.equal(429);
      charge(10);
      const other = await translate({ text: 'Hello', targetLanguage: 'fr' }, TEST_KEYS.b);
      expect(other.status).to.equal(200);
      expect(other.body.data.tokens.used).to.equal(10);
    });

    it('starts again at 0 when the UTC month changes', async () => {
      charge(100);
      await translate({ text: 'Hello', targetLanguage: 'fr' });
      expect((await translate({ text: 'Hello', targetLanguage: 'fr' })).status).to.equal(429);
      clock.set('2026-04-01T00:00:00.000Z');
      charge(7);
      const res = await translate({ text: 'Hello', targetLanguage: 'fr' });
      expect(res.status).to.equal(200);
      expect(res.body.data.tokens).to.deep.equal({ used: 7, remaining: 93, limit: 100 });
    });
  });

  describe('when calls run concurrently', () => {
    it('counts every call’s tokens', async () => {
      await api.service.container.get(ManageTenants).setAiTokenLimit(TEST_TENANTS.a, 10_000);
      charge(15);
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => translate({ text: `Text ${i}`, targetLanguage: 'fr' })));
      expect(results.map((r) => r.status)).to.deep.equal(Array(12).fill(200));
      expect(await usedByA()).to.equal(180);
      const used = results.map((r) => r.body.data.tokens.used as number).sort((a, b) => a - b);
      expect(used).to.deep.equal(Array.from({ length: 12 }, (_, i) => (i + 1) * 15));
    });
  });

  describe('when the provider fails', () => {
    const failures: Array<[string, FakeChatReply]> = [
      ['answers 500', { status: 500, raw: 'upstream exploded', contentType: 'text/plain' }],
      ['answers 401 (a bad key)', { status: 401, json: { error: { message: 'Incorrect API key' } } }],
      ['answers malformed JSON', { raw: '{"choices":[{"message":' }],
      ['answers empty choices', { json: { ...chatCompletion('x', 10), choices: [] } }],
      ['answers an empty content', { json: chatCompletion('   ', 10) }],
      ['answers without usage', { json: { ...chatCompletion('Bonjour', 10), usage: undefined } }],
    ];
    for (const [name, reply] of failures) {
      it(`answers 502 when it ${name}, and charges nothing`, async () => {
        answer(reply);
        const res = await translate({ text: 'Hello', targetLanguage: 'fr' });
        expect(res.status).to.equal(502);
        expect(res.body).to.deep.equal(FAILED);
        expect(provider.requests).to.have.length(1);
        expect(await usedByA()).to.equal(0);
      });
    }

    it('answers 502 when it cannot be reached', async () => {
      await provider.close();
      const res = await translate({ text: 'Hello', targetLanguage: 'fr' });
      expect(res.body).to.deep.equal(FAILED);
      expect(await usedByA()).to.equal(0);
    });

    it('answers 504 when it does not answer within AI_TIMEOUT_MS, and charges nothing', async () => {
      answer({ hang: 'before-headers' });
      const started = Date.now();
      const res = await translate({ text: 'Hello', targetLanguage: 'fr' });
      expect(res.status).to.equal(504);
      expect(res.body).to.deep.equal({ success: false, statusCode: 504, message: 'AI provider timed out', data: null });
      expect(Date.now() - started).to.be.below(2000);
      expect(await usedByA()).to.equal(0);
      charge(12);
      expect((await translate({ text: 'Hello', targetLanguage: 'fr' })).body.data.tokens.used).to.equal(12);
    });
  });

  describe('when the body is not acceptable', () => {
    const refusals = TRANSLATE_REFUSALS;
    for (const [name, body, problem] of refusals) {
      it(`answers 400 for ${name}, without calling the provider`, async () => {
        const res = await translate(body);
        expect(res.status).to.equal(400);
        expect(res.body.message).to.equal(`Validation failed: ${problem}`);
        expect(res.body.success).to.equal(false);
        expect(res.body.data).to.equal(null);
        expect(provider.requests).to.have.length(0);
      });
    }

    it('checks the body before the quota', async () => {
      await api.service.container.get(ManageTenants).setAiTokenLimit(TEST_TENANTS.a, 0);
      expect((await translate({ text: ' ', targetLanguage: 'fr' })).status).to.equal(400);
      expect((await translate({ text: 'Hello', targetLanguage: 'fr' })).status).to.equal(429);
    });
  });

  describe('when the API key is missing', () => {
    it('answers 401 before anything else', async () => {
      const res = await api.call('POST', '/ai/translate', { key: null, body: { text: 'Hello', targetLanguage: 'fr' } });
      expect(res.status).to.equal(401);
      expect(provider.requests).to.have.length(0);
    });
  });

  describe('the interface description', () => {
    it('documents the route with its body and every outcome', async () => {
      const doc = (await api.call('GET', '/openapi.json', { key: null })).body;
      const operation = doc.paths['/ai/translate'].post;
      expect(operation.requestBody.content['application/json'].schema.required).to.deep.equal(['text', 'targetLanguage']);
      expect(Object.keys(operation.responses)).to.include.members(['200', '400', '401', '429', '502', '503', '504']);
      expect(operation.responses['503'].description).to.equal('AI provider is not configured');
    });
  });
});

describe('POST /ai/translate without a provider', () => {
  let api: TestService;
  before(async () => {
    api = await startTestService({ AI_TOKEN_LIMIT_MONTHLY: '0' });
  });
  after(() => api.stop());

  describe('when AI_BASE_URL is not set', () => {
    it('answers 503 AI provider is not configured, even with the quota used up', async () => {
      const res = await api.call('POST', '/ai/translate', { body: { text: 'Hello', targetLanguage: 'fr' } });
      expect(res.status).to.equal(503);
      expect(res.body).to.deep.equal({ success: false, statusCode: 503, message: 'AI provider is not configured', data: null });
    });

    it('still answers 400 for a bad body first', async () => {
      const res = await api.call('POST', '/ai/translate', { body: { text: 'Hello', targetLanguage: 'fr', extra: 1 } });
      expect(res.status).to.equal(400);
      expect(res.body.message).to.equal('Validation failed: body.extra is not allowed');
    });
  });
});
