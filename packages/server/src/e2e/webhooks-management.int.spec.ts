/** §7 webhook management over HTTP: bearer admin, the secret shown once, §6.1 paging with signed cursors, §6.3 ETags and If-Match, the SSRF guard at create and update. */
import { expect } from 'chai';
import { engagementClient, type Headers } from '../testing/engagement-client.js';
import { CapturingLogger, startTestService, TEST_KEYS, TEST_STORAGES, type TestService } from '../testing/test-service.js';

const WEBHOOK_KEYS = ['id', 'url', 'events', 'description', 'enabled', 'createdAt', 'updatedAt'];

for (const storage of TEST_STORAGES) {
  describe(`Webhook management (storage: ${storage})`, () => {
    let api: TestService;
    let admin: Headers;
    const logger = new CapturingLogger();

    before(async () => {
      api = await startTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', CMS_REQUEST_LOG: 'on' }, { storage, logger, requestLogger: logger });
      admin = await engagementClient(api).bearer('admin');
    });
    after(() => api.stop());

    const create = (body: unknown, headers: Headers = admin) => api.call('POST', '/webhooks/create', { headers, body });

    it('warns at start-up that WEBHOOK_ALLOW_PRIVATE_NETWORKS turned the address guard off', () => {
      expect(logger.lines.filter((line) => line.level === 'warn' && line.message.startsWith('WEBHOOK_ALLOW_PRIVATE_NETWORKS=true'))).to.have.length(1);
    });

    describe('when an admin creates a webhook', () => {
      it('answers 201 with the webhook and a whsec_ secret of 24 to 64 random bytes, which no later read shows', async () => {
        const res = await create({ url: 'https://hooks.example.com/a', events: ['form.submitted', 'form.submitted'], description: 'CRM' });
        expect(res.status).to.equal(201);
        expect(res.body.message).to.equal('Webhook created successfully');
        const webhook = res.body.data.webhook;
        expect(Object.keys(webhook)).to.have.members([...WEBHOOK_KEYS, 'secret']);
        expect(webhook).to.deep.include({ url: 'https://hooks.example.com/a', events: ['form.submitted'], description: 'CRM', enabled: true });
        expect(webhook.secret).to.match(/^whsec_[A-Za-z0-9+/]+=*$/);
        const keyBytes = Buffer.from(webhook.secret.slice(6), 'base64').length;
        expect(keyBytes).to.be.within(24, 64);

        const read = await api.call('GET', `/webhooks/getById/${webhook.id}`, { headers: admin });
        expect(read.status).to.equal(200);
        expect(read.body.message).to.equal('Webhook retrieved successfully');
        expect(Object.keys(read.body.data.webhook)).to.have.members(WEBHOOK_KEYS);
        const list = await api.call('GET', '/webhooks/list', { headers: admin });
        expect(JSON.stringify(list.body)).not.to.include(webhook.secret);
        const updated = await api.call('PATCH', `/webhooks/update/${webhook.id}`, { headers: admin, body: { enabled: false } });
        expect(JSON.stringify(updated.body)).not.to.include(webhook.secret);
        expect(JSON.stringify(logger.lines)).not.to.include(webhook.secret.slice(6));
      });

      it('answers 409 Webhook limit reached for a tenant’s 51st webhook, after the 400s, and stores none (decision 0825)', async () => {
        const own = await startTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, { storage });
        try {
          const headers = await engagementClient(own).bearer('admin');
          for (let i = 0; i < 50; i += 1) expect((await own.call('POST', '/webhooks/create', { headers, body: { url: `https://hooks.example.com/${i}`, events: ['*'] } })).status).to.equal(201);
          const refused = await own.call('POST', '/webhooks/create', { headers, body: { url: 'https://hooks.example.com/51', events: ['*'] } });
          expect([refused.status, refused.body.message]).to.deep.equal([409, 'Webhook limit reached']);
          expect((await own.call('POST', '/webhooks/create', { headers, body: { url: 'https://hooks.example.com/51', events: [] } })).status).to.equal(400);
          expect((await own.call('GET', '/webhooks/list?limit=100', { headers })).body.data.webhooks).to.have.length(50);
        } finally {
          await own.stop();
        }
      });

      it('refuses other callers: no bearer 401, an editor 403', async () => {
        const body = { url: 'https://hooks.example.com/b', events: ['*'] };
        expect((await create(body, { 'x-user-id': 'someone' })).status).to.equal(401);
        const editor = await create(body, await engagementClient(api).bearer('editor'));
        expect([editor.status, editor.body.message]).to.deep.equal([403, 'Forbidden']);
        expect((await api.call('GET', '/webhooks/list', { headers: await engagementClient(api).bearer('editor') })).status).to.equal(403);
      });

      it('answers 400 for a bad url, an empty or unknown event list, or "*" mixed with types', async () => {
        for (const body of [
          { url: 'ftp://hooks.example.com/', events: ['*'] },
          { url: 'not a url', events: ['*'] },
          { url: `https://example.com/${'a'.repeat(2048)}`, events: ['*'] },
          { url: 'https://hooks.example.com/', events: [] },
          { url: 'https://hooks.example.com/', events: ['form.exploded'] },
          { url: 'https://hooks.example.com/', events: ['*', 'form.created'] },
          { url: 'https://hooks.example.com/', events: ['*'], secret: 'mine' },
        ]) {
          const res = await create(body);
          expect(res.status, JSON.stringify(body)).to.equal(400);
          expect(res.body.message).to.match(/^Validation failed: /);
        }
      });

      it('answers 400 for a url the WHATWG parser would mend (as it does one that does not parse), at create and update, and stores nothing', async () => {
        const invalid = 'Validation failed: body.url must be an absolute http or https URL';
        expect((await create({ url: 'not a url', events: ['*'] })).body.message).to.equal(invalid);
        const { id } = (await create({ url: 'HTTPS://Hooks.Example.com/plain', events: ['*'] })).body.data.webhook;
        const before = (await api.call('GET', '/webhooks/list?limit=100', { headers: admin })).body.data.webhooks.length;
        for (const url of ['http:/93.184.216.34/', 'http:93.184.216.34/x', '  http://93.184.216.34/x  ', 'http://93.184\n.216.34/x', 'http:///93.184.216.34/']) {
          const created = await create({ url, events: ['*'] });
          expect([created.status, created.body.message], JSON.stringify(url)).to.deep.equal([400, invalid]);
          const updated = await api.call('PATCH', `/webhooks/update/${id}`, { headers: admin, body: { url } });
          expect([updated.status, updated.body.message], JSON.stringify(url)).to.deep.equal([400, invalid]);
        }
        expect((await api.call('GET', '/webhooks/list?limit=100', { headers: admin })).body.data.webhooks).to.have.length(before);
        expect((await api.call('GET', `/webhooks/getById/${id}`, { headers: admin })).body.data.webhook.url).to.equal('HTTPS://Hooks.Example.com/plain');
      });
    });

    describe('when an admin reads, pages, updates and deletes', () => {
      it('pages newest first with nextCursor until null, each webhook once', async () => {
        const other = await engagementClient(api).bearer('admin', 'admin-b', 'tenant-b');
        const ids: string[] = [];
        for (let i = 0; i < 5; i += 1) {
          const body = { url: `https://hooks.example.com/p${i}`, events: ['*'] };
          ids.push((await api.call('POST', '/webhooks/create', { key: TEST_KEYS.b, headers: other, body })).body.data.webhook.id);
        }
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const res: any = await api.call('GET', `/webhooks/list?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { key: TEST_KEYS.b, headers: other });
          expect(res.status).to.equal(200);
          expect(res.body.message).to.equal('Webhooks retrieved successfully');
          expect(res.body.data.webhooks.length).to.be.at.most(2);
          seen.push(...res.body.data.webhooks.map((webhook: { id: string }) => webhook.id));
          cursor = res.body.data.nextCursor;
        } while (cursor);
        expect(seen).to.deep.equal([...ids].reverse());
        const page: any = await api.call('GET', '/webhooks/list?limit=1', { key: TEST_KEYS.b, headers: other });
        const foreign = await api.call('GET', `/webhooks/list?cursor=${page.body.data.nextCursor}`, { headers: admin });
        expect([foreign.status, foreign.body.message]).to.deep.equal([400, 'Invalid cursor']);
      });

      it('answers 400 Invalid cursor and 400 for a limit out of range', async () => {
        const bad = await api.call('GET', '/webhooks/list?cursor=bm90LWEtY3Vyc29y', { headers: admin });
        expect([bad.status, bad.body.message]).to.deep.equal([400, 'Invalid cursor']);
        for (const query of ['limit=0', 'limit=101', 'limit=2.5', 'limit=abc', 'other=1']) {
          expect((await api.call('GET', `/webhooks/list?${query}`, { headers: admin })).status, query).to.equal(400);
        }
      });

      it('updates in the §6.3 order: 400 Invalid webhook id, 404 Webhook not found, then the body', async () => {
        const id = (await create({ url: 'https://hooks.example.com/u', events: ['*'] })).body.data.webhook.id;
        const malformed = await api.call('PATCH', '/webhooks/update/nope', { headers: admin, body: { bogus: 1 } });
        expect([malformed.status, malformed.body.message]).to.deep.equal([400, 'Invalid webhook id']);
        const missing = await api.call('PATCH', `/webhooks/update/${'0'.repeat(24)}`, { headers: admin, body: { bogus: 1 } });
        expect([missing.status, missing.body.message]).to.deep.equal([404, 'Webhook not found']);
        const unknown = await api.call('PATCH', `/webhooks/update/${id}`, { headers: admin, body: { bogus: 1 } });
        expect(unknown.status).to.equal(400);
        const noop = await api.call('PATCH', `/webhooks/update/${id}`, { headers: admin, body: {} });
        expect([noop.status, noop.body.message]).to.deep.equal([200, 'Webhook updated successfully']);
        // No body at all is no change too, as the document says (its request body is not required).
        const bodiless = await api.call('PATCH', `/webhooks/update/${id}`, { headers: admin });
        expect([bodiless.status, bodiless.body.data.webhook.url]).to.deep.equal([200, 'https://hooks.example.com/u']);
        const documented = await api.call('GET', '/openapi.json', { key: null });
        expect(documented.body.paths['/webhooks/update/{id}'].patch.requestBody.required).to.equal(false);
        const changed = await api.call('PATCH', `/webhooks/update/${id.toUpperCase()}`, { headers: admin, body: { events: ['comment.created'], description: null, enabled: false } });
        expect(changed.body.data.webhook).to.deep.include({ id, events: ['comment.created'], description: null, enabled: false });
      });

      it('tags create, read and update answers alike (never by the secret); If-None-Match is 304, a stale If-Match 412 and changes nothing', async () => {
        const created = await create({ url: 'https://hooks.example.com/e', events: ['*'] });
        const id = created.body.data.webhook.id;
        const read = await api.call('GET', `/webhooks/getById/${id}`, { headers: admin });
        expect(read.headers.get('etag')).to.match(/^"[A-Za-z0-9_-]{27}"$/);
        expect(created.headers.get('etag'), 'the create answer is tagged as the webhook reads').to.equal(read.headers.get('etag'));
        const etag = read.headers.get('etag')!;
        const cached = await api.call('GET', `/webhooks/getById/${id}`, { headers: { ...admin, 'if-none-match': etag } });
        expect([cached.status, cached.headers.get('etag')]).to.deep.equal([304, etag]);
        const stale = await api.call('PATCH', `/webhooks/update/${id}`, { headers: { ...admin, 'if-match': '"stale"' }, body: { enabled: false } });
        expect([stale.status, stale.body.message]).to.deep.equal([412, 'Precondition failed']);
        const staleFirst = await api.call('PATCH', `/webhooks/update/${id}`, { headers: { ...admin, 'if-match': '"stale"' }, body: { bogus: 1 } });
        expect(staleFirst.status, 'the precondition comes before the body').to.equal(412);
        const updated = await api.call('PATCH', `/webhooks/update/${id}`, { headers: { ...admin, 'if-match': etag }, body: { description: 'tagged' } });
        expect(updated.status).to.equal(200);
        expect(updated.headers.get('etag')).not.to.equal(etag);
        expect(Date.parse(updated.body.data.webhook.updatedAt)).to.be.greaterThan(Date.parse(read.body.data.webhook.updatedAt));
        const again = await api.call('PATCH', `/webhooks/update/${id}`, { headers: { ...admin, 'if-match': etag }, body: { enabled: false } });
        expect(again.status, 'the old tag no longer matches').to.equal(412);
        expect((await api.call('GET', `/webhooks/getById/${id}`, { headers: admin })).body.data.webhook).to.deep.include({ description: 'tagged', enabled: true });
        const staleDelete = await api.call('DELETE', `/webhooks/delete/${id}`, { headers: { ...admin, 'if-match': etag } });
        expect(staleDelete.status).to.equal(412);
        expect((await api.call('GET', `/webhooks/getById/${id}`, { headers: admin })).status).to.equal(200);
        expect((await api.call('DELETE', `/webhooks/delete/${id}`, { headers: { ...admin, 'if-match': '*' } })).status).to.equal(200);
      });

      it('refuses a list cursor changed by hand (cursors are signed)', async () => {
        for (let i = 0; i < 2; i += 1) await create({ url: `https://hooks.example.com/s${i}`, events: ['*'] });
        const cursor: string = (await api.call('GET', '/webhooks/list?limit=1', { headers: admin })).body.data.nextCursor;
        expect((await api.call('GET', `/webhooks/list?limit=1&cursor=${cursor}`, { headers: admin })).status).to.equal(200);
        const [payload, mac] = cursor.split('.') as [string, string];
        const position = Buffer.from(payload, 'base64url').toString('utf8').replace(/^[0-9a-z]+/, (time) => (Number.parseInt(time, 36) + 1).toString(36));
        const forged = `${Buffer.from(position, 'utf8').toString('base64url')}.${mac}`;
        const res = await api.call('GET', `/webhooks/list?limit=1&cursor=${forged}`, { headers: admin });
        expect([res.status, res.body.message]).to.deep.equal([400, 'Invalid cursor']);
      });

      it('deletes once: 200 with data null, then 404; its delivery log is gone with it', async () => {
        const id = (await create({ url: 'https://hooks.example.com/d', events: ['*'] })).body.data.webhook.id;
        const first = await api.call('DELETE', `/webhooks/delete/${id}`, { headers: admin });
        expect([first.status, first.body.message, first.body.data]).to.deep.equal([200, 'Webhook deleted successfully', null]);
        expect((await api.call('DELETE', `/webhooks/delete/${id}`, { headers: admin })).status).to.equal(404);
        expect((await api.call('GET', `/webhooks/${id}/deliveries`, { headers: admin })).status).to.equal(404);
      });

      it('keeps tenants apart: another tenant\'s webhook is 404', async () => {
        const id = (await create({ url: 'https://hooks.example.com/t', events: ['*'] })).body.data.webhook.id;
        const other = await engagementClient(api).bearer('admin', 'admin-b', 'tenant-b');
        const res = await api.call('GET', `/webhooks/getById/${id}`, { key: TEST_KEYS.b, headers: other });
        expect([res.status, res.body.message]).to.deep.equal([404, 'Webhook not found']);
      });
    });
  });
}

describe('Webhook URL guard at create and update (WEBHOOK_ALLOW_PRIVATE_NETWORKS unset)', () => {
  let api: TestService;
  let admin: Headers;

  before(async () => {
    api = await startTestService();
    admin = await engagementClient(api).bearer('admin');
  });
  after(() => api.stop());

  it('answers 400 Webhook URL is not allowed for refused addresses in every spelling, and for names resolving there', async () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://2130706433/', // decimal 127.0.0.1
      'http://0177.0.0.1/', // octal 127.0.0.1
      'http://0x7f.1/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/', // IPv4-mapped
      'http://[::ffff:a00:1]/', // IPv4-mapped 10.0.0.1
      'http://10.1.2.3/',
      'http://172.16.0.1/',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data',
      'http://100.64.0.1/',
      'http://0.0.0.0/',
      'http://[::]/',
      'http://[fe80::1]/',
      'http://[fd12:3456::1]/',
      'http://[fec0::1]/', // site-local
      'http://[::ffff:0:7f00:1]/', // IPv4-translated 127.0.0.1
      'http://[64:ff9b::7f00:1]/', // NAT64 of 127.0.0.1
      'http://[2002:7f00:1::]/', // 6to4 of 127.0.0.1
      'http://198.18.0.1/', // benchmarking (a proxy's fake-IP range)
      'http://[2001::1]/', // Teredo
      'http://[64:ff9b:1::a00:1]/', // local-use NAT64
      'http://localhost:8080/', // a name resolving to loopback
    ]) {
      const res = await api.call('POST', '/webhooks/create', { headers: admin, body: { url, events: ['*'] } });
      expect([res.status, res.body.message], url).to.deep.equal([400, 'Webhook URL is not allowed']);
    }
  });

  it('allows a public address, and refuses an update to a refused one, changing nothing', async () => {
    const created = await api.call('POST', '/webhooks/create', { headers: admin, body: { url: 'http://93.184.215.14/hook', events: ['*'] } });
    expect(created.status).to.equal(201);
    const id = created.body.data.webhook.id;
    const res = await api.call('PATCH', `/webhooks/update/${id}`, { headers: admin, body: { url: 'http://[::ffff:192.168.0.1]/' } });
    expect([res.status, res.body.message]).to.deep.equal([400, 'Webhook URL is not allowed']);
    const read = await api.call('GET', `/webhooks/getById/${id}`, { headers: admin });
    expect(read.body.data.webhook.url).to.equal('http://93.184.215.14/hook');
  });
});
