/** §0 conventions and §1 credentials over real HTTP: envelope, errors, keys, tokens, logs. */
import { expect } from 'chai';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { SignJWT, importPKCS8 } from 'jose';
import { DashboardConfigRepositoryToken, ManageTenants, type DashboardConfigRepository } from '@cms/core';
import sinon from 'sinon';
import { engagementClient, guest } from '../testing/engagement-client.js';
import { headerProblems } from '../testing/documented-headers.js';
import { RawConnection, requestHead } from '../testing/raw-http.js';
import { CapturingLogger, startTestService, TEST_KEYS, type TestService } from '../testing/test-service.js';

describe('HTTP edge', () => {
  let api: TestService;
  before(async () => {
    api = await startTestService();
  });
  after(() => api.stop());

  describe('when the API key is missing, unknown or revoked', () => {
    it('answers 401 Unauthorized for a missing key', async () => {
      const res = await api.call('GET', '/ai/repurpose/template', { key: null });
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({ success: false, statusCode: 401, message: 'Unauthorized', data: null });
    });

    it('answers 401 for an unknown key', async () => {
      const res = await api.call('GET', '/ai/repurpose/template', { key: 'cms_not-a-real-key' });
      expect(res.status).to.equal(401);
      expect(res.body.message).to.equal('Unauthorized');
    });

    it('answers 401 for a key revoked after it worked', async () => {
      const manage = api.service.container.get(ManageTenants);
      const issued = await manage.issueKey('tenant-a', 'short-lived');
      expect((await api.call('GET', '/ai/repurpose/template', { key: issued.key })).status).to.equal(200);
      await manage.revokeKey(issued.record.id);
      expect((await api.call('GET', '/ai/repurpose/template', { key: issued.key })).status).to.equal(401);
    });

    it('checks the key before the body, so a keyless broken body is 401', async () => {
      const res = await api.call('PUT', '/reports/dashboardConfig', { key: null, rawBody: '{oops' });
      expect(res.status).to.equal(401);
    });
  });

  describe('when a bearer token is sent', () => {
    const dashboard = (authorization: string) =>
      api.call('GET', '/reports/dashboardConfig', { headers: { authorization } });

    it('accepts a valid token and takes the user from sub', async () => {
      const token = await api.token({ sub: 'editor-7', role: 'editor' });
      await api.call('PUT', '/reports/dashboardConfig', { headers: { authorization: `Bearer ${token}` }, body: { templateId: 'mine' } });
      const res = await api.call('GET', '/reports/dashboardConfig', { headers: { 'x-user-id': 'editor-7' } });
      expect(res.body.data.dashboardConfig.templateId).to.equal('mine');
    });

    it('reads the scheme in any case, as RFC 9110 §11.1 has it', async () => {
      const token = await api.token({ sub: 'editor-8', role: 'editor' });
      for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
        const res = await api.call('PUT', '/reports/dashboardConfig', { headers: { authorization: `${scheme} ${token}` }, body: { templateId: scheme } });
        expect(res.status, scheme).to.equal(200);
      }
    });

    const refusals: Array<[string, () => Promise<string>]> = [
      ['malformed', async () => 'Bearer not.a.jwt'],
      ['expired', async () => `Bearer ${await api.token({ sub: 'u1' }, { expiresIn: '-1m' })}`],
      ['forged (wrong secret)', async () => `Bearer ${await api.token({ sub: 'u1' }, { secret: 'someone-elses-secret-0123456789abc' })}`],
      ['for another tenant', async () => `Bearer ${await api.token({ sub: 'u1', tenant: 'tenant-b' })}`],
      ['without sub', async () => `Bearer ${await api.token({ role: 'admin' })}`],
      ['with an unknown role', async () => `Bearer ${await api.token({ sub: 'u1', role: 'superuser' })}`],
      ['with alg none', async () => `Bearer ${unsigned({ sub: 'u1', tenant: 'tenant-a' })}`],
      ['of another scheme', async () => 'Basic dXNlcjpwYXNz'],
      ['empty (an Authorization header is judged whenever it is sent)', async () => ''],
    ];
    for (const [name, header] of refusals) {
      it(`answers 401 for a token that is ${name}, even where x-user-id would do`, async () => {
        const res = await api.call('GET', '/reports/dashboardConfig', { headers: { authorization: await header(), 'x-user-id': 'u1' } });
        expect(res.status).to.equal(401);
        expect(res.body).to.deep.equal({ success: false, statusCode: 401, message: 'Unauthorized', data: null });
      });
    }

    it('answers 401 for two Authorization headers, whichever comes first (Node would keep the first; a proxy may have judged the last)', async () => {
      const editor = `Bearer ${await api.token({ sub: 'editor-2', role: 'editor' })}`;
      for (const pair of [[editor, 'Bearer not-a-token'], ['Bearer not-a-token', editor], [editor, editor]]) {
        const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = request(`${api.baseUrl}/authors/create`, {
            method: 'POST',
            // An array value is sent as one header line each.
            headers: { 'x-api-key': TEST_KEYS.a, 'content-type': 'application/json', authorization: pair as unknown as string },
          });
          req.on('response', (res) => {
            let body = '';
            res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          });
          req.on('error', reject);
          req.end(JSON.stringify({ name: 'Two headers' }));
        });
        expect(answer.status, pair.map((h) => h.slice(0, 12)).join(' + ')).to.equal(401);
        expect(JSON.parse(answer.body)).to.deep.equal({ success: false, statusCode: 401, message: 'Unauthorized', data: null });
      }
      const listed = await api.call('GET', '/authors/list?limit=100', { headers: { authorization: editor } });
      expect(listed.body.data.authors.map((a: { name: string }) => a.name)).not.to.include('Two headers');
    });

    it('answers 401 on routes that need no user too', async () => {
      const res = await api.call('GET', '/ai/repurpose/template', { headers: { authorization: 'Bearer broken' } });
      expect(res.status).to.equal(401);
      void dashboard;
    });
  });

  describe('when the request is malformed at the HTTP level', () => {
    it('answers 400 Invalid JSON body for unparseable JSON', async () => {
      const res = await api.call('PUT', '/reports/dashboardConfig', { headers: { 'x-user-id': 'u1' }, rawBody: '{"slots": [' });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ success: false, statusCode: 400, message: 'Invalid JSON body', data: null });
    });

    it('answers a strict body with a __proto__ key at any depth 400 naming it, and stores nothing', async () => {
      const form = (title: string) => `{"title": ${title}, "slug": "proto-key", "sections": [{"fields": [{"name": "a", "type": "text", "label": {"en": "A"}}]}]}`;
      const deep = `${'['.repeat(20_000)}{"__proto__": 1}${']'.repeat(20_000)}`;
      const cases: [string, string, string][] = [
        ['/forms/create', form('{"__proto__": "x", "en": "T"}'), 'body.title.__proto__'],
        ['/forms/create', form('{"en": "T"}').replace('"label"', '"__proto__": {"polluted": 1}, "label"'), 'body.sections[0].fields[0].__proto__'],
        ['/ai/translate', '{"text": "x", "targetLanguage": "fr", "__proto__": {"polluted": 1}}', 'body.__proto__'],
        ['/ai/translate', `{"text": "x", "targetLanguage": "fr", "z": ${deep}}`, `body.z${'[0]'.repeat(20_000)}.__proto__`],
      ];
      for (const [path, rawBody, named] of cases) {
        const res = await api.call('POST', path, { rawBody });
        expect(res.status, named.slice(0, 40)).to.equal(400);
        expect(res.body.message, named.slice(0, 40)).to.equal(`Validation failed: ${named} is not allowed`);
      }
      expect((await api.call('GET', '/forms/getBySlug/proto-key')).status).to.equal(404);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    });

    it('answers 413 for a body over the limit and stores nothing', async () => {
      const big = JSON.stringify({ templateId: 'big', padding: 'x'.repeat(1024 * 1024) });
      const res = await api.call('PUT', '/reports/dashboardConfig', { headers: { 'x-user-id': 'big-user' }, rawBody: big });
      expect(res.status).to.equal(413);
      expect(res.body.message).to.equal('Request body too large');
      const read = await api.call('GET', '/reports/dashboardConfig', { headers: { 'x-user-id': 'big-user' } });
      expect(read.body.data.dashboardConfig.templateId).to.equal('executive_focus');
    });

    it('accepts a body of exactly the limit (1 MiB) and answers one byte more 413', async () => {
      const sized = (bytes: number) => `{"padding":"${'x'.repeat(bytes - '{"padding":""}'.length)}"}`;
      expect(Buffer.byteLength(sized(1024 * 1024))).to.equal(1024 * 1024);
      const res = await api.call('PUT', '/reports/dashboardConfig', { headers: { 'x-user-id': 'u1' }, rawBody: sized(1024 * 1024) });
      expect(res.status).to.equal(200);
      const over = await api.call('PUT', '/reports/dashboardConfig', { headers: { 'x-user-id': 'u1' }, rawBody: sized(1024 * 1024 + 1) });
      expect([over.status, over.body.message]).to.deep.equal([413, 'Request body too large']);
    });

    it('answers 415 for a body that is not JSON', async () => {
      const res = await api.call('PUT', '/reports/dashboardConfig', {
        headers: { 'x-user-id': 'u1' },
        rawBody: 'templateId=x',
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(res.status).to.equal(415);
      expect(res.body.success).to.equal(false);
    });

    it('takes a JSON body under any spelling of a JSON media type, and refuses look-alikes with 415', async () => {
      const body = JSON.stringify({ templateId: 'sales_focus' });
      for (const contentType of ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/json;', 'application/vnd.api+json']) {
        const res = await api.call('PUT', '/reports/dashboardConfig', { headers: { 'x-user-id': 'media-user' }, rawBody: body, contentType });
        expect(res.status, contentType).to.equal(200);
        expect(res.headers.get('content-type'), contentType).to.equal('application/json; charset=utf-8');
      }
      for (const contentType of ['application/jsonx', 'text/json', 'text/plain']) {
        const res = await api.call('PUT', '/reports/dashboardConfig', { headers: { 'x-user-id': 'media-user' }, rawBody: body, contentType });
        expect(res.status, contentType).to.equal(415);
        expect(res.body.statusCode, contentType).to.equal(415);
      }
    });

    it('answers a JSON body declared in a charset other than UTF-8 415, and stores nothing', async () => {
      const put = (contentType: string, bytes: Buffer) =>
        fetch(`${api.baseUrl}/reports/dashboardConfig`, { method: 'PUT', headers: { 'x-api-key': TEST_KEYS.a, 'x-user-id': 'charset-user', 'content-type': contentType }, body: bytes });
      for (const [contentType, bytes] of [
        ['application/json; charset=iso-8859-1', Buffer.from('{"templateId":"café"}', 'latin1')],
        ['application/json; charset=utf-16le', Buffer.from('{"templateId":"café"}', 'utf16le')],
        ['application/json; charset="Windows-1252"', Buffer.from('{"templateId":"café"}', 'latin1')],
      ] as const) {
        const res = await put(contentType, bytes);
        expect(res.status, contentType).to.equal(415);
        expect(await res.json(), contentType).to.deep.equal({ success: false, statusCode: 415, message: 'A JSON body must be UTF-8', data: null });
      }
      expect((await api.call('GET', '/reports/dashboardConfig', { headers: { 'x-user-id': 'charset-user' } })).body.data.dashboardConfig.templateId).to.equal('executive_focus');
      for (const charset of ['utf-8', 'UTF-8', 'utf8', '"utf-8"']) {
        const res = await put(`application/json; charset=${charset}`, Buffer.from('{"templateId":"café"}'));
        expect(res.status, charset).to.equal(200);
      }
      expect((await api.call('GET', '/reports/dashboardConfig', { headers: { 'x-user-id': 'charset-user' } })).body.data.dashboardConfig.templateId).to.equal('café');
    });

    it('answers text holding a lone surrogate 400 naming where, on strict and lenient bodies, and takes escaped pairs and escaped backslashes', async () => {
      const dashboard = (rawBody: string) => api.call('PUT', '/reports/dashboardConfig', { headers: { 'x-user-id': 'surrogate-user' }, rawBody });
      const refused = (path: string) => `Validation failed: ${path} is not well-formed Unicode text (it holds a lone surrogate)`;
      expect((await dashboard('{"templateId":"a\\ud800b"}')).body.message).to.equal(refused('body.templateId'));
      expect((await dashboard('{"slots":[{"id":"ok"},{"id":"\\udbff"}]}')).body.message).to.equal(refused('body.slots[1].id'));
      expect((await dashboard('{"\\udc00":1}')).body.message).to.equal(refused('body.\\udc00'));
      expect((await dashboard('{"__proto__":1,"templateId":"\\ud800"}')).body.message, 'with a key the dashboard drops').to.equal(refused('body.templateId'));
      expect((await api.call('GET', '/reports/dashboardConfig', { headers: { 'x-user-id': 'surrogate-user' } })).body.data.dashboardConfig.templateId).to.equal('executive_focus');
      const created = await api.call('POST', '/authors/create', { headers: { authorization: `Bearer ${await api.token({ sub: 'ed', role: 'editor' })}` }, rawBody: '{"name":"Ada \\ud83d"}' });
      expect([created.status, created.body.message]).to.deep.equal([400, refused('body.name')]);
      const unknown = await api.call('PATCH', `/authors/update/${'f'.repeat(24)}`, { headers: { authorization: `Bearer ${await api.token({ sub: 'ed', role: 'editor' })}` }, rawBody: '{"name":"\\ud83d"}' });
      expect(unknown.status, 'an update answers its 404 before its body check, as for any refused body').to.equal(404);
      const kept = await dashboard('{"templateId":"\\ud83d\\ude00 \\\\ud800"}');
      expect(kept.status).to.equal(200);
      expect(kept.body.data.dashboardConfig.templateId).to.equal('😀 \\ud800');
    });

    it('answers a body in a content coding it does not decode 415 Unsupported Content-Encoding with the codings it does, and takes gzip, deflate, br and identity under any spelling', async () => {
      const put = (encoding: string, bytes: Uint8Array | string) =>
        fetch(`${api.baseUrl}/reports/dashboardConfig`, {
          method: 'PUT',
          headers: { 'x-api-key': TEST_KEYS.a, 'x-user-id': 'encoding-user', 'content-type': 'application/json', 'content-encoding': encoding },
          body: bytes,
        });
      const encoders: Array<[string, (bytes: Buffer) => Uint8Array]> = [['gzip', gzipSync], ['deflate', deflateSync], ['br', brotliCompressSync], ['identity', (bytes) => bytes]];
      for (const [encoding, encode] of encoders) {
        expect((await put(encoding, encode(Buffer.from(JSON.stringify({ templateId: `sent-${encoding}` }))))).status, encoding).to.equal(200);
        const read = await api.call('GET', '/reports/dashboardConfig', { headers: { 'x-user-id': 'encoding-user' } });
        expect(read.body.data.dashboardConfig.templateId).to.equal(`sent-${encoding}`);
      }
      // Coding names are case-insensitive, and x-gzip is gzip (RFC 9110 §8.4.1).
      const spellings: Array<[string, (bytes: Buffer) => Uint8Array]> = [['GZIP', gzipSync], [' Deflate ', deflateSync], ['Br', brotliCompressSync], ['x-gzip', gzipSync], ['IDENTITY', (bytes) => bytes]];
      for (const [encoding, encode] of spellings) {
        expect((await put(encoding, encode(Buffer.from(JSON.stringify({ templateId: `spelt-${encoding.trim()}` }))))).status, encoding).to.equal(200);
        const read = await api.call('GET', '/reports/dashboardConfig', { headers: { 'x-user-id': 'encoding-user' } });
        expect(read.body.data.dashboardConfig.templateId).to.equal(`spelt-${encoding.trim()}`);
      }
      const document = (await api.call('GET', '/openapi.json', { key: null })).body;
      for (const encoding of ['foo', 'compress', 'zstd', 'gzip, gzip', 'x-deflate']) {
        const res = await put(encoding, JSON.stringify({ templateId: 'never' }));
        expect(res.status, encoding).to.equal(415);
        expect(await res.json(), encoding).to.deep.equal({ success: false, statusCode: 415, message: 'Unsupported Content-Encoding', data: null });
        expect(res.headers.get('accept-encoding'), encoding).to.equal('gzip, deflate, br');
        expect(headerProblems(document, document.paths['/reports/dashboardConfig'].put.responses['415'], res.headers)).to.deep.equal([]);
      }
      expect(document.paths['/reports/dashboardConfig'].put.responses['415'].description).to.equal('Content-Type must be application/json | A JSON body must be UTF-8 | Unsupported Content-Encoding');
    });

    it('answers a compressed body that inflates past the limit 413 and serves the next request on the same connection', async () => {
      // Past 1 MiB early, then incompressible text: ~200 KB still on the wire when the reader gives up
      // (before, the rest stayed piped into the stopped decoder, and the next request waited for the
      // request timeout, then the connection was reset).
      const json = Buffer.from(`{"templateId":"x","note":"${'a'.repeat(2 * 1024 * 1024)}${randomBytes(196_608).toString('base64')}"}`);
      const compressed = gzipSync(json);
      expect(compressed.length).to.be.above(190_000);
      // Also when the client waited for 100 Continue: told to send, it sends the body whole, so it is drained too.
      for (const expectation of [{}, { expect: '100-continue' }] as Array<Record<string, string>>) {
        const connection = await RawConnection.open(Number(new URL(api.service.url).port));
        try {
          const head = { 'x-api-key': TEST_KEYS.a, 'x-user-id': 'inflate-user', 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': compressed.length, ...expectation };
          connection.write(requestHead('PUT', '/cms/reports/dashboardConfig', head));
          if (expectation['expect']) expect(await connection.firstLine()).to.equal('HTTP/1.1 100 Continue');
          connection.write(compressed);
          const refused = await connection.response();
          expect([refused.status, JSON.parse(refused.body).message], JSON.stringify(expectation)).to.deep.equal([413, 'Request body too large']);
          expect(refused.headers['connection'], JSON.stringify(expectation)).not.to.equal('close');
          connection.write(requestHead('GET', '/healthz', {}));
          expect((await connection.response(3_000)).status, JSON.stringify(expectation)).to.equal(200);
        } finally {
          connection.close();
        }
      }
    });

    it('ignores a body on a route that takes none: never 413 nor 415, and the connection stays usable', async () => {
      const connection = await RawConnection.open(Number(new URL(api.service.url).port));
      const path = `/cms/forms/getById/${'a'.repeat(24)}`;
      try {
        const large = 2 * 1024 * 1024;
        connection.write(requestHead('GET', path, { 'x-api-key': TEST_KEYS.a, 'content-type': 'application/json', 'content-length': large }));
        const [answer] = await Promise.all([connection.response(), connection.writeBody(large)]);
        expect([answer.status, JSON.parse(answer.body).message]).to.deep.equal([404, 'Form not found']);
        expect(answer.headers['connection']).not.to.equal('close');
        connection.write(`${requestHead('GET', path, { 'x-api-key': TEST_KEYS.a, 'content-type': 'text/plain', 'content-length': 5 })}hello`);
        expect((await connection.response()).status).to.equal(404);
      } finally {
        connection.close();
      }
      const article = await engagementClient(api).article();
      const comment = await engagementClient(api).comment(article.id, { approve: false });
      const editor = await engagementClient(api).bearer('editor');
      const approved = await api.call('PUT', `/articles/comments/${comment.id}/approve`, { headers: editor, rawBody: 'x'.repeat(2 * 1024 * 1024), contentType: 'text/plain' });
      expect([approved.status, approved.body.message]).to.deep.equal([200, 'Comment approved successfully']);
      const unreacted = await api.call('DELETE', `/articles/${article.id}/reaction`, { headers: guest('guest-body-0001'), rawBody: 'ignored', contentType: 'text/plain' });
      expect([unreacted.status, unreacted.body.message]).to.deep.equal([200, 'Reaction removed successfully']);
    });

    it('answers 404 Route not found for an unknown path, with or without a key', async () => {
      for (const key of [TEST_KEYS.a, null]) {
        const res = await api.call('GET', '/no/such/route', { key });
        expect(res.status).to.equal(404);
        expect(res.body).to.deep.equal({ success: false, statusCode: 404, message: 'Route not found', data: null });
      }
    });

    it('answers 405 Method not allowed with an Allow header for a known path', async () => {
      const res = await api.call('DELETE', '/reports/dashboardConfig');
      expect(res.status).to.equal(405);
      expect(res.body.message).to.equal('Method not allowed');
      expect(res.headers.get('allow')).to.contain('GET').and.to.contain('PUT');
    });

    it('matches paths as the router does: case-insensitive, trailing slash allowed, unknown ones 404 in every group', async () => {
      const res = await api.call('DELETE', '/Reports/DashboardConfig/');
      expect(res.status).to.equal(405);
      expect(res.headers.get('allow')).to.contain('GET').and.to.contain('PUT');
      for (const path of ['/reports/nothing', '/forms', '/reports/dashboardConfig/extra', '']) {
        expect((await api.call('GET', path)).status, path).to.equal(404);
      }
    });
  });

  describe('request ids', () => {
    it('echoes a safe caller id', async () => {
      const res = await api.call('GET', '/ai/repurpose/template', { headers: { 'x-request-id': 'trace-123_abc' } });
      expect(res.headers.get('x-request-id')).to.equal('trace-123_abc');
    });

    it('replaces an unsafe or overlong id with a new one', async () => {
      for (const given of ['has spaces in it', 'x'.repeat(129), '<script>']) {
        const res = await api.call('GET', '/ai/repurpose/template', { headers: { 'x-request-id': given } });
        const id = res.headers.get('x-request-id');
        expect(id).to.match(/^[0-9a-f-]{36}$/);
      }
    });

    it('sets an id on errors too', async () => {
      const res = await api.call('GET', '/nowhere', { key: null });
      expect(res.headers.get('x-request-id')).to.be.a('string').and.not.equal('');
    });
  });

  describe('health and the interface description', () => {
    it('answers /healthz and /readyz without a key', async () => {
      expect((await api.call('GET', `${api.service.url}/healthz`, { key: null })).status).to.equal(200);
      const ready = await api.call('GET', `${api.service.url}/readyz`, { key: null });
      expect(ready.status).to.equal(200);
      expect(ready.body.data).to.deep.equal({ status: 'ready' });
    });

    it('answers another method than GET or HEAD on /healthz, /readyz and /metrics 405 Method not allowed with Allow: GET, HEAD', async () => {
      for (const path of ['/healthz', '/readyz', '/metrics']) {
        expect((await api.call('HEAD', `${api.service.url}${path}`, { key: null })).status, `HEAD ${path}`).to.equal(200);
        for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
          const res = await api.call(method, `${api.service.url}${path}`, { key: null });
          expect([res.status, res.body, res.headers.get('allow')], `${method} ${path}`).to.deep.equal([
            405,
            { success: false, statusCode: 405, message: 'Method not allowed', data: null },
            'GET, HEAD',
          ]);
        }
      }
      for (const path of ['/healthz/', '/Healthz', '/metrics/x']) expect((await api.call('POST', `${api.service.url}${path}`, { key: null })).status, path).to.equal(404);
    });

    it('serves an OpenAPI 3.1 document without a key', async () => {
      const res = await api.call('GET', '/openapi.json', { key: null });
      expect(res.status).to.equal(200);
      expect(res.body.openapi).to.equal('3.1.0');
      expect(res.body.info.version).to.equal('1.0.0');
      expect(res.body.servers[0].url).to.match(/\/cms$/);
      expect(res.body.components.securitySchemes.apiKey).to.deep.equal({ type: 'apiKey', in: 'header', name: 'x-api-key' });
      expect(res.body.security).to.deep.equal([{ apiKey: [] }]);
      const put = res.body.paths['/reports/dashboardConfig'].put;
      expect(put.responses).to.have.keys('200', '400', '401', '412', '413', '415', '500');
      expect(put.responses['500'].description).to.equal('Failed to update dashboard config');
      expect(put.responses['200'].headers).to.have.property('ETag');
      expect(put.parameters.map((parameter: { name: string }) => parameter.name)).to.include('If-Match');
      const template = res.body.paths['/ai/repurpose/template'];
      expect(template.get.responses['200'].description).to.equal('Repurpose template loaded');
      expect(template.get.responses).to.have.property('304');
      expect(template.get.parameters.map((parameter: { name: string }) => parameter.name)).to.include('If-None-Match');
      expect(template.put.responses).to.have.property('412');
    });
  });
});

describe('HTTP edge with public-key tokens and logs', () => {
  it('verifies RS256 and ES256 tokens against CMS_JWT_PUBLIC_KEY', async () => {
    for (const [type, alg, options] of [
      ['rsa', 'RS256', { modulusLength: 2048 }],
      ['ec', 'ES256', { namedCurve: 'P-256' }],
    ] as const) {
      const pair = generateKeyPairSync(type as 'rsa', options as { modulusLength: number });
      const pem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
      const privateKey = await importPKCS8(pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), alg);
      const api = await startTestService({ CMS_JWT_SECRET: '', CMS_JWT_PUBLIC_KEY: pem });
      try {
        const good = await new SignJWT({ tenant: 'tenant-a' }).setProtectedHeader({ alg }).setSubject('pk-user').sign(privateKey);
        const res = await api.call('GET', '/reports/dashboardConfig', { headers: { authorization: `Bearer ${good}` } });
        expect(res.status, alg).to.equal(200);
        const hs = await api.token({ sub: 'pk-user' });
        expect((await api.call('GET', '/reports/dashboardConfig', { headers: { authorization: `Bearer ${hs}` } })).status).to.equal(401);
      } finally {
        await api.stop();
      }
    }
  });

  it('logs one line per request with method, route, status, duration, request id and tenant, and no secrets', async () => {
    const requests = new CapturingLogger();
    const api = await startTestService({}, { requestLogger: requests });
    try {
      const token = await api.token({ sub: 'u1' });
      await api.call('PUT', '/reports/dashboardConfig', {
        headers: { authorization: `Bearer ${token}`, 'x-request-id': 'log-check-1', 'x-captcha-token': 'captcha-secret' },
        body: { templateId: 'body-secret' },
      });
      expect(requests.lines).to.have.length(1);
      const line = requests.lines[0]!;
      expect(line).to.include({ method: 'PUT', route: '/cms/reports/dashboardConfig', status: 200, requestId: 'log-check-1', tenant: 'tenant-a' });
      expect(line.durationMs).to.be.a('number');
      const text = JSON.stringify(requests.lines);
      for (const secret of [TEST_KEYS.a, token, 'captcha-secret', 'body-secret']) expect(text).not.to.contain(secret);
      // Paths outside the routes name themselves; an unknown path has no route.
      for (const path of ['/healthz', '/readyz', '/cms/openapi.json', '/cms/docs', '/no/such/route']) await fetch(`${api.service.url}${path}`);
      expect(requests.lines.slice(1).map((logged) => logged.route)).to.deep.equal(['/healthz', '/readyz', '/cms/openapi.json', '/cms/docs', null]);
    } finally {
      await api.stop();
    }
  });

  it("writes the line through info('request') to an embedder's logger, even one with a request method of its own", async () => {
    class LoggerWithRequest extends CapturingLogger {
      readonly requestCalls: unknown[][] = [];
      request(...args: unknown[]): void {
        this.requestCalls.push(args);
      }
    }
    const requests = new LoggerWithRequest();
    const api = await startTestService({}, { requestLogger: requests });
    try {
      await api.call('GET', '/reports/dashboardConfig', { headers: { 'x-user-id': 'u1', 'x-request-id': 'own-request-1' } });
      expect(requests.requestCalls).to.deep.equal([]);
      expect(requests.lines).to.have.length(1);
      expect(requests.lines[0]).to.include({ level: 'info', message: 'request', method: 'GET', route: '/cms/reports/dashboardConfig', status: 200, requestId: 'own-request-1', tenant: 'tenant-a' });
    } finally {
      await api.stop();
    }
  });

  it('answers a storage failure with the operation’s 500 message, no internals, and logs it under the request id', async () => {
    const errors = new CapturingLogger();
    const api = await startTestService({}, { logger: errors });
    try {
      const repo = api.service.container.get<DashboardConfigRepository>(DashboardConfigRepositoryToken);
      const stub = sinon.stub(repo, 'upsert').rejects(new Error('disk on fire at /var/db'));
      const res = await api.call('PUT', '/reports/dashboardConfig', { headers: { 'x-user-id': 'u1', 'x-request-id': 'boom-1' }, body: {} });
      stub.restore();
      expect(res.status).to.equal(500);
      expect(res.body).to.deep.equal({ success: false, statusCode: 500, message: 'Failed to update dashboard config', data: null });
      const logged = errors.lines.find((line) => line.level === 'error');
      expect(logged?.requestId).to.equal('boom-1');
      expect(JSON.stringify(logged)).to.contain('disk on fire');
    } finally {
      await api.stop();
    }
  });

  it("logs a 500 under the caller's trace id beside the request id, so the failure is found from its trace", async () => {
    const errors = new CapturingLogger();
    const api = await startTestService({}, { logger: errors });
    try {
      const traceId = '0af7651916cd43dd8448eb211c80319c';
      const repo = api.service.container.get<DashboardConfigRepository>(DashboardConfigRepositoryToken);
      const stub = sinon.stub(repo, 'upsert').rejects(new Error('connection reset'));
      const res = await api.call('PUT', '/reports/dashboardConfig', {
        headers: { 'x-user-id': 'u1', 'x-request-id': 'traced-boom-1', traceparent: `00-${traceId}-b7ad6b7169203331-01` },
        body: {},
      });
      stub.restore();
      expect(res.status).to.equal(500);
      const logged = errors.lines.filter((line) => line.level === 'error');
      expect(logged).to.have.length(1);
      expect(logged[0]).to.include({ message: 'request failed', requestId: 'traced-boom-1', traceId });
    } finally {
      await api.stop();
    }
  });
});

function unsigned(claims: object): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
}
