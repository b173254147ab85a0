/**
 * CONTRACT §8 logging: every line the service writes while serving a request carries that
 * request's id and trace id, also lines written deep in an adapter (the AI provider failing, the
 * CAPTCHA provider unreachable or refusing the secret). The ids travel with the caller's trace
 * context rather than through AsyncLocalStorage (decision 0730).
 */
import { expect } from 'chai';
import { chatCompletion, FakeChatCompletionsServer } from '@cms/adapter-ai/testing';
import { LocalSiteVerifyServer } from '@cms/adapter-captcha/testing';
import { engagementClient, guest } from '../testing/engagement-client.js';
import { CapturingLogger, startTestService, type CallResult, type TestService } from '../testing/test-service.js';

describe('Log lines written while serving a request', () => {
  const logger = new CapturingLogger();
  let provider: FakeChatCompletionsServer;
  let siteVerify: LocalSiteVerifyServer;
  let api: TestService;

  before(async () => {
    provider = await FakeChatCompletionsServer.start();
    siteVerify = await LocalSiteVerifyServer.start();
    api = await startTestService(
      { AI_BASE_URL: provider.baseUrl, AI_MODEL: 'm', CAPTCHA_TURNSTILE_SECRET: 'ts-secret', CAPTCHA_TURNSTILE_VERIFY_URL: siteVerify.url, CAPTCHA_PROVIDER_DEFAULT: 'turnstile' },
      { logger },
    );
  });
  after(async () => {
    await api?.stop();
    await provider?.close();
    await siteVerify?.stop();
  });

  /** The lines logged while `send` ran, checked to name the answer's request id and one trace id. */
  async function linesOf(send: () => Promise<CallResult>): Promise<Array<Record<string, unknown>>> {
    const from = logger.lines.length;
    const answer = await send();
    const lines = logger.lines.slice(from);
    expect(lines, 'lines logged').not.to.deep.equal([]);
    for (const line of lines) {
      expect(line, line.message).to.include({ requestId: answer.headers.get('x-request-id') });
      expect(line['traceId'], line.message).to.match(/^[0-9a-f]{32}$/);
    }
    return lines;
  }

  it('the AI provider failing', async () => {
    provider.script = () => ({ status: 503, json: { error: { message: 'overloaded' } } });
    const lines = await linesOf(() => api.call('POST', '/ai/translate', { headers: { 'x-request-id': 'req-ai-1' }, body: { text: 'Hi', targetLanguage: 'fr' } }));
    expect(lines.map((l) => l.message)).to.include('AI provider call failed');
    provider.script = () => ({ json: chatCompletion('Salut', 2) });
  });

  it('the CAPTCHA provider unreachable, and refusing the configured secret', async () => {
    const article = await engagementClient(api).article();
    siteVerify.answer = { kind: 'json', status: 500, body: {} };
    const down = await linesOf(() => api.call('PUT', `/articles/${article.id}/reaction`, { headers: guest('guest-log-0001', 'tok'), body: { type: 'like' } }));
    expect(down.map((l) => l.message)).to.include('CAPTCHA provider unavailable; token rejected');
    siteVerify.answer = { kind: 'json', body: { success: false, 'error-codes': ['invalid-input-secret'] } };
    const refused = await linesOf(() => api.call('PUT', `/articles/${article.id}/reaction`, { headers: guest('guest-log-0002', 'tok'), body: { type: 'like' } }));
    expect(refused.map((l) => l.message)).to.include('CAPTCHA provider rejects the configured secret');
  });
});
