/**
 * CONTRACT §8 HTTP conventions over HTTP: CORS, Retry-After, compression, common headers,
 * /metrics, W3C trace context in the request log and on outbound calls.
 */
import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { FakeChatCompletionsServer, chatCompletion } from '@cms/adapter-ai/testing';
import { LocalSiteVerifyServer } from '@cms/adapter-captcha/testing';
import { ManualClock } from '@cms/core';
import { engagementClient, guest } from '../testing/engagement-client.js';
import { createForm } from './form-requests.js';
import { CapturingLogger, startTestService, TEST_KEYS, type TestService } from '../testing/test-service.js';

const APP = 'https://app.example.com';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;
const W3C = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** A GET over node:http, which (unlike fetch) shows the encoded bytes and every header as sent. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; bytes: number }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes }));
    })
      .on('error', reject)
      .end();
  });
}

describe('HTTP conventions (CONTRACT §8)', () => {
  describe('CORS', () => {
    describe('when CMS_CORS_ORIGINS is unset', () => {
      let api: TestService;
      before(async () => (api = await startTestService()));
      after(() => api.stop());

      it('sends no CORS headers and answers OPTIONS 405', async () => {
        const preflight = await api.call('OPTIONS', '/reports/dashboardConfig', {
          headers: { origin: APP, 'access-control-request-method': 'PUT' },
        });
        expect(preflight.status).to.equal(405);
        const res = await api.call('GET', '/reports/dashboardConfig', { headers: { origin: APP, 'x-user-id': 'u1' } });
        expect([...res.headers.keys()].filter((name) => name.startsWith('access-control-'))).to.deep.equal([]);
      });
    });

    describe('when CMS_CORS_ORIGINS lists an origin', () => {
      let api: TestService;
      before(async () => (api = await startTestService({ CMS_CORS_ORIGINS: `${APP},https://admin.example.com` })));
      after(() => api.stop());

      it('answers a preflight from it 204 with the allowed methods, headers and max age, without an API key', async () => {
        const res = await api.call('OPTIONS', '/reports/dashboardConfig', {
          key: null,
          headers: { origin: APP, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'x-api-key,content-type' },
        });
        expect(res.status).to.equal(204);
        expect(res.headers.get('access-control-allow-origin')).to.equal(APP);
        expect(res.headers.get('access-control-allow-methods')).to.contain('PUT');
        const allowed = res.headers.get('access-control-allow-headers')!.split(', ');
        for (const name of ['x-api-key', 'authorization', 'content-type', 'x-user-id', 'x-guest-id', 'x-captcha-token', 'x-request-id', 'if-match', 'if-none-match']) {
          expect(allowed, name).to.include(name);
        }
        expect(res.headers.get('access-control-max-age'), 'docs/operations.md').to.equal('600');
      });

      it('answers an OPTIONS from it that is no preflight (no or an empty Access-Control-Request-Method) 405 with Allow', async () => {
        for (const headers of [{ origin: APP }, { origin: APP, 'access-control-request-method': '' }] as Array<Record<string, string>>) {
          const res = await api.call('OPTIONS', '/reports/dashboardConfig', { key: null, headers });
          expect([res.status, res.body.message], JSON.stringify(headers)).to.deep.equal([405, 'Method not allowed']);
          expect(res.headers.get('allow')!.split(', ')).to.include.members(['GET', 'PUT']);
        }
      });

      it('puts allow-origin, expose-headers and Vary: Origin on its answers, errors included', async () => {
        for (const [options, status] of [
          [{ headers: { origin: APP, 'x-user-id': 'u1' } }, 200],
          [{ key: 'wrong-key-000000000000', headers: { origin: APP } }, 401],
        ] as const) {
          const res = await api.call('GET', '/reports/dashboardConfig', options);
          expect(res.status).to.equal(status);
          expect(res.headers.get('access-control-allow-origin')).to.equal(APP);
          expect(res.headers.get('access-control-expose-headers')!.split(', ')).to.include.members(['x-request-id', 'etag', 'retry-after']);
          expect(res.headers.get('vary')).to.match(/\bOrigin\b/);
        }
      });

      it('gives an origin it does not list no Access-Control header, and its preflight stays 405', async () => {
        const preflight = await api.call('OPTIONS', '/reports/dashboardConfig', {
          headers: { origin: 'https://evil.example.net', 'access-control-request-method': 'PUT' },
        });
        expect(preflight.status).to.equal(405);
        const res = await api.call('GET', '/reports/dashboardConfig', { headers: { origin: 'https://evil.example.net', 'x-user-id': 'u1' } });
        expect([...res.headers.keys()].filter((name) => name.startsWith('access-control-'))).to.deep.equal([]);
      });

      it('gives Origin: null no Access-Control header: a list cannot name it', async () => {
        const res = await api.call('GET', '/reports/dashboardConfig', { headers: { origin: 'null', 'x-user-id': 'u1' } });
        expect([...res.headers.keys()].filter((name) => name.startsWith('access-control-'))).to.deep.equal([]);
      });
    });

    describe('when CMS_CORS_ORIGINS is *', () => {
      let api: TestService;
      before(async () => (api = await startTestService({ CMS_CORS_ORIGINS: '*' })));
      after(() => api.stop());

      it('answers Origin: null (sandboxed iframes, file: pages) with Access-Control-Allow-Origin: *, never null, its preflight included', async () => {
        const preflight = await api.call('OPTIONS', '/reports/dashboardConfig', { key: null, headers: { origin: 'null', 'access-control-request-method': 'PUT' } });
        const res = await api.call('GET', '/reports/dashboardConfig', { headers: { origin: 'null', 'x-user-id': 'u1' } });
        for (const [name, answer, status] of [['preflight', preflight, 204], ['answer', res, 200]] as const) {
          expect([answer.status, answer.headers.get('access-control-allow-origin')], name).to.deep.equal([status, '*']);
          expect(answer.headers.get('access-control-allow-credentials'), name).to.equal(null);
          expect(answer.headers.get('vary'), name).to.match(/\bOrigin\b/);
        }
        expect(res.headers.get('access-control-expose-headers')!.split(', ')).to.include.members(['x-request-id', 'etag', 'retry-after']);
      });

      it('echoes any other origin, as before', async () => {
        const res = await api.call('GET', '/reports/dashboardConfig', { headers: { origin: APP, 'x-user-id': 'u1' } });
        expect(res.headers.get('access-control-allow-origin')).to.equal(APP);
      });
    });
  });

  describe('Retry-After on 429', () => {
    it('says when the guest window ends', async () => {
      const clock = new ManualClock('2026-05-01T10:00:45.200Z');
      const api = await startTestService({ GUEST_REACTION_LIMIT: '1', GUEST_REACTION_WINDOW_SECONDS: '60' }, { clock });
      try {
        const article = await engagementClient(api).article();
        const react = () => api.call('PUT', `/articles/${article.id}/reaction`, { headers: guest('guest-retry-01'), body: { type: 'like' } });
        expect((await react()).status).to.equal(200);
        const limited = await react();
        expect(limited.status).to.equal(429);
        expect(limited.headers.get('retry-after')).to.equal('15'); // the window ends at 10:01:00.000
      } finally {
        await api.stop();
      }
    });

    it('says when the AI quota month ends (UTC)', async () => {
      const clock = new ManualClock('2026-05-31T23:58:30.000Z');
      const api = await startTestService({ AI_BASE_URL: 'http://127.0.0.1:9/v1', AI_MODEL: 'm', AI_TOKEN_LIMIT_MONTHLY: '0' }, { clock });
      try {
        const res = await api.call('POST', '/ai/translate', { body: { text: 'Hi', targetLanguage: 'fr' } });
        expect(res.status).to.equal(429);
        expect(res.body.message).to.equal('AI token quota exceeded');
        expect(res.headers.get('retry-after')).to.equal('90');
      } finally {
        await api.stop();
      }
    });
  });

  describe('compression and common headers', () => {
    let api: TestService;
    before(async () => (api = await startTestService()));
    after(() => api.stop());

    it('sends an answer over 1 KiB gzip- or br-encoded as the client allows, with Vary: Accept-Encoding', async () => {
      const url = `${api.baseUrl}/openapi.json`;
      const plain = await rawGet(url, {});
      expect(plain.headers['content-encoding']).to.equal(undefined);
      for (const encoding of ['gzip', 'br']) {
        const res = await rawGet(url, { 'accept-encoding': encoding });
        expect(res.status).to.equal(200);
        expect(res.headers['content-encoding'], encoding).to.equal(encoding);
        expect(res.headers['vary']).to.match(/Accept-Encoding/i);
        expect(res.bytes).to.be.below(plain.bytes / 3);
      }
    });

    it('encodes an error answer over 1 KiB as any other, with Vary: Accept-Encoding', async () => {
      // A query key the list does not know is named in the message: 700 characters of it make a 400 of ~1.5 KB.
      const url = `${api.baseUrl}/forms/list?${'k'.repeat(700)}=1`;
      const plain = await rawGet(url, { 'x-api-key': TEST_KEYS.a });
      expect([plain.status, plain.headers['content-encoding']]).to.deep.equal([400, undefined]);
      expect(plain.bytes).to.be.above(1024);
      for (const encoding of ['gzip', 'br']) {
        const res = await rawGet(url, { 'x-api-key': TEST_KEYS.a, 'accept-encoding': encoding });
        expect([res.status, res.headers['content-encoding']], encoding).to.deep.equal([400, encoding]);
        expect(res.headers['vary']).to.match(/Accept-Encoding/i);
        expect(res.bytes).to.be.below(plain.bytes / 3);
      }
    });

    it('gives an encoded answer its own strong ETag, naming the coding, and takes it back in If-None-Match and If-Match', async () => {
      const editor = { authorization: `Bearer ${await api.token({ sub: 'ed-1', role: 'editor' })}` };
      const created = await api.call('POST', '/articles/create', { headers: editor, body: { title: 'Long read', content: 'Lorem ipsum dolor sit amet. '.repeat(80) } });
      const url = `${api.baseUrl}/articles/getById/${created.body.data.article.id}`;
      const read = (headers: Record<string, string>) => rawGet(url, { 'x-api-key': TEST_KEYS.a, ...headers });
      const plain = await read({});
      const tag = String(plain.headers['etag']);
      expect(tag).to.match(/^"[A-Za-z0-9_-]{27}"$/);
      const gzipTag = `${tag.slice(0, -1)}-gzip"`;
      const brTag = `${tag.slice(0, -1)}-br"`;
      expect((await read({ 'accept-encoding': 'gzip' })).headers['etag']).to.equal(gzipTag);
      expect((await read({ 'accept-encoding': 'br' })).headers['etag']).to.equal(brTag);
      for (const held of [tag, gzipTag, brTag, `W/${gzipTag}`]) {
        const notModified = await read({ 'accept-encoding': 'gzip', 'if-none-match': held });
        // The ETag and Vary the 200 would have carried (RFC 9110 §15.4.5): the gzip answer's.
        expect([notModified.status, notModified.headers['etag']], held).to.deep.equal([304, gzipTag]);
        expect(notModified.headers['vary'], held).to.match(/Accept-Encoding/i);
      }
      const uncoded = await read({ 'if-none-match': tag });
      expect([uncoded.status, uncoded.headers['etag']]).to.deep.equal([304, tag]);
      expect(uncoded.headers['vary']).to.match(/Accept-Encoding/i);
      expect((await read({ 'accept-encoding': 'br', 'if-none-match': gzipTag })).headers['etag']).to.equal(brTag);
      expect((await read({ 'if-none-match': `"${'x'.repeat(27)}-gzip"` })).status, 'another record’s tag').to.equal(200);
      const stale = await api.call('PATCH', `/articles/update/${created.body.data.article.id}`, { headers: { ...editor, 'if-match': `"${'x'.repeat(27)}-br"` }, body: { title: 'Stale' } });
      expect(stale.status).to.equal(412);
      const updated = await api.call('PATCH', `/articles/update/${created.body.data.article.id}`, { headers: { ...editor, 'if-match': brTag }, body: { title: 'Longer read' } });
      expect(updated.status).to.equal(200);
    });

    it('gives the 304 of a small record the plain tag and no Vary on the coding, as its 200', async () => {
      const small = await api.call('POST', '/authors/create', { headers: { authorization: `Bearer ${await api.token({ sub: 'ed-1', role: 'editor' })}` }, body: { name: 'Ada' } });
      const url = `${api.baseUrl}/authors/getById/${small.body.data.author.id}`;
      const plain = await rawGet(url, { 'x-api-key': TEST_KEYS.a, 'accept-encoding': 'gzip' });
      expect(plain.headers['content-encoding']).to.equal(undefined);
      expect(String(plain.headers['vary'] ?? '')).not.to.match(/Accept-Encoding/i);
      const notModified = await rawGet(url, { 'x-api-key': TEST_KEYS.a, 'accept-encoding': 'gzip', 'if-none-match': String(plain.headers['etag']) });
      expect([notModified.status, notModified.headers['etag'], notModified.headers['vary']]).to.deep.equal([304, plain.headers['etag'], plain.headers['vary']]);
    });

    it('leaves a small answer unencoded', async () => {
      const res = await rawGet(`${api.service.url}/healthz`, { 'accept-encoding': 'gzip, br' });
      expect(res.headers['content-encoding']).to.equal(undefined);
    });

    it('puts nosniff on every answer, and a Cache-Control no shared cache may store under the base path', async () => {
      const answers = [
        await api.call('GET', '/reports/dashboardConfig', { headers: { 'x-user-id': 'u1' } }),
        await api.call('GET', '/reports/dashboardConfig', { key: null }),
        await api.call('GET', '/no/such/route'),
        await api.call('GET', `${api.service.url}/healthz`),
      ];
      for (const res of answers) {
        expect(res.headers.get('x-content-type-options'), String(res.status)).to.equal('nosniff');
        expect(res.headers.get('cache-control'), String(res.status)).to.match(/no-store|private/);
      }
      const document = await api.call('GET', '/openapi.json', { key: null });
      expect(document.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(document.headers.get('cache-control')).not.to.match(/no-store|private/);
    });
  });

  describe('GET /metrics', () => {
    let api: TestService;
    before(async () => (api = await startTestService()));
    after(() => api.stop());

    const scrape = async () => {
      const res = await fetch(`${api.service.url}/metrics`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.contain('text/plain');
      return res.text();
    };
    const labelSets = (text: string, metric: string) => new Set(text.split('\n').filter((line) => line.startsWith(`${metric}{`)).map((line) => line.slice(0, line.lastIndexOf(' '))));

    it('serves requests by method, route template and status, outbox jobs by status, AI tokens and process metrics, without a key', async () => {
      await api.call('GET', '/reports/dashboardConfig', { headers: { 'x-user-id': 'u1' } });
      const text = await scrape();
      expect(text).to.match(/^http_requests_total\{method="GET",route="\/cms\/reports\/dashboardConfig",status="200"\} \d+$/m);
      expect(text).to.match(/^http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/cms\/reports\/dashboardConfig",status="200"\} \d+$/m);
      for (const status of ['pending', 'sent', 'failed', 'skipped']) expect(text).to.match(new RegExp(`^outbox_jobs\\{status="${status}"\\} \\d+$`, 'm'));
      expect(text).to.match(/^ai_tokens_charged_total \d+$/m);
      expect(text).to.match(/^process_cpu_user_seconds_total /m);
    });

    it('adds no label values for 10,000 requests to 10,000 different ids', async function () {
      this.timeout(60_000);
      const probe = (i: number) => api.call('GET', `/forms/getById/${i.toString(16).padStart(24, '0')}`);
      await probe(0);
      await api.call('GET', `/forms/getById/not-an-id`);
      await api.call('GET', `/no/such/${'x'}`);
      const before = labelSets(await scrape(), 'http_requests_total');
      for (let i = 1; i <= 10_000; i += 100) await Promise.all(Array.from({ length: 100 }, (_, k) => probe(i + k)));
      await Promise.all(Array.from({ length: 50 }, (_, k) => api.call('GET', `/no/such/path-${k}`)));
      const after = labelSets(await scrape(), 'http_requests_total');
      expect([...after].filter((labels) => !before.has(labels))).to.deep.equal([]);
      expect([...after].some((labels) => labels.includes('route="/cms/forms/getById/:id"'))).to.equal(true);
    });

    it('is 404 with CMS_METRICS=false, for every method', async () => {
      const off = await startTestService({ CMS_METRICS: 'false' });
      try {
        for (const method of ['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS']) {
          const res = await fetch(`${off.service.url}/metrics`, { method });
          expect([res.status, res.headers.get('allow')], method).to.deep.equal([404, null]);
        }
      } finally {
        await off.stop();
      }
    });
  });

  describe('trace context', () => {
    let provider: FakeChatCompletionsServer;
    let siteVerify: LocalSiteVerifyServer;
    let api: TestService;
    let requests: CapturingLogger;
    before(async () => {
      provider = await FakeChatCompletionsServer.start();
      provider.script = () => ({ json: chatCompletion('Bonjour', 5) });
      siteVerify = await LocalSiteVerifyServer.start();
      siteVerify.answer = { kind: 'json', body: { success: true } };
      requests = new CapturingLogger();
      api = await startTestService(
        { AI_BASE_URL: provider.baseUrl, AI_MODEL: 'm', CAPTCHA_TURNSTILE_SECRET: 'ts-secret', CAPTCHA_TURNSTILE_VERIFY_URL: siteVerify.url, CAPTCHA_PROVIDER_DEFAULT: 'turnstile' },
        { requestLogger: requests },
      );
    });
    after(async () => {
      await api.stop();
      await provider.close();
      await siteVerify.stop();
    });
    const lastRequestLine = () => requests.lines.filter((line) => line.message === 'request').at(-1)!;

    it("writes the caller's trace id in the request log line, and a new one when none is sent", async () => {
      await api.call('GET', '/reports/dashboardConfig', { headers: { 'x-user-id': 'u1', traceparent: TRACEPARENT } });
      expect(lastRequestLine()).to.include({ traceId: TRACE_ID });
      await api.call('GET', '/reports/dashboardConfig', { headers: { 'x-user-id': 'u1', traceparent: '00-not-a-trace' } });
      const fresh = lastRequestLine()['traceId'] as string;
      expect(fresh).to.match(/^[0-9a-f]{32}$/);
      expect(fresh).not.to.equal(TRACE_ID);
    });

    it('continues a trace sent in a later traceparent version, and starts a new one for version ff', async () => {
      for (const traceparent of [`01-${TRACE_ID}-00f067aa0ba902b7-01`, `cc-${TRACE_ID}-00f067aa0ba902b7-01-extra`]) {
        await api.call('GET', '/reports/dashboardConfig', { headers: { 'x-user-id': 'u1', traceparent } });
        expect(lastRequestLine(), traceparent).to.include({ traceId: TRACE_ID });
      }
      await api.call('GET', '/reports/dashboardConfig', { headers: { 'x-user-id': 'u1', traceparent: `ff-${TRACE_ID}-00f067aa0ba902b7-01` } });
      expect(lastRequestLine()['traceId']).to.match(/^[0-9a-f]{32}$/).and.not.to.equal(TRACE_ID);
    });

    it('sends a child traceparent on the AI provider call and the CAPTCHA site-verify call', async () => {
      const translated = await api.call('POST', '/ai/translate', { headers: { traceparent: TRACEPARENT }, body: { text: 'Hi', targetLanguage: 'fr' } });
      expect(translated.status).to.equal(200);
      const toProvider = W3C.exec(String(provider.requests.at(-1)!.headers.traceparent));
      expect(toProvider?.[1]).to.equal(TRACE_ID);
      expect(toProvider?.[2]).not.to.equal('00f067aa0ba902b7');
      expect(await (await fetch(`${api.service.url}/metrics`)).text()).to.match(/^ai_tokens_charged_total 5$/m);

      const article = await engagementClient(api).article();
      const reacted = await api.call('PUT', `/articles/${article.id}/reaction`, { headers: { ...guest('guest-trace-01', 'tok'), traceparent: TRACEPARENT }, body: { type: 'like' } });
      expect(reacted.status).to.equal(200);
      const toSiteVerify = W3C.exec(String(siteVerify.received.at(-1)!.traceparent));
      expect(toSiteVerify?.[1]).to.equal(TRACE_ID);
    });

    it('sends the client address as remoteip on the site-verify call of a guest write and of a form gate', async () => {
      const article = await engagementClient(api).article();
      const reacted = await api.call('PUT', `/articles/${article.id}/reaction`, { headers: guest('guest-remote-01', 'guest-token'), body: { type: 'like' } });
      expect(reacted.status).to.equal(200);
      expect(siteVerify.received.at(-1)!.form).to.deep.equal({ secret: 'ts-secret', response: 'guest-token', remoteip: '127.0.0.1' });

      const gated = await createForm(api, 'remote-ip-gate', { captcha: { enabled: true, provider: 'turnstile', minScore: 0 } });
      const submitted = await api.call('POST', `/forms/${gated.id}/submit`, { headers: { 'x-user-id': 'member-1', 'x-captcha-token': 'form-token' }, body: { values: { name: 'Ada' } } });
      expect(submitted.status).to.equal(201);
      expect(siteVerify.received.at(-1)!.form).to.deep.equal({ secret: 'ts-secret', response: 'form-token', remoteip: '127.0.0.1' });
    });
  });
});

describe('LOG_LEVEL=debug', () => {
  it('is accepted, and an early answer is logged at debug level with its request id', async () => {
    const logger = new CapturingLogger();
    const lines: Array<{ message: string; fields: Record<string, unknown> | undefined }> = [];
    const debugging = Object.assign(logger, { debug: (message: string, fields?: Record<string, unknown>) => lines.push({ message, fields }) });
    const api = await startTestService({ LOG_LEVEL: 'debug' }, { logger: debugging });
    try {
      const res = await api.call('PUT', '/reports/dashboardConfig', { key: TEST_KEYS.a, rawBody: ' '.repeat(2 * 1024 * 1024), headers: { 'x-user-id': 'u1', 'x-request-id': 'debug-probe-1' } });
      expect(res.status).to.equal(413);
    } finally {
      await api.stop();
    }
    expect(lines.some((line) => line.message === 'answered before the body was read' && line.fields?.['requestId'] === 'debug-probe-1')).to.equal(true);
  });
});
