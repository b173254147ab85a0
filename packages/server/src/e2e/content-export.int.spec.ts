/** §6.6 over HTTP: the submissions export, CSV and NDJSON, its headers and its enveloped errors. */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { startTestService, TEST_KEYS, TEST_STORAGES, type TestService } from '../testing/test-service.js';
import { createForm, formBody, submitForm } from './form-requests.js';

/** A GET with exactly these headers besides the key (fetch would ask for an encoding and undo it). */
function rawExport(url: string, headers: Record<string, string>): Promise<{ headers: Record<string, string | string[] | undefined>; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers: { 'x-api-key': TEST_KEYS.a, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

for (const storage of TEST_STORAGES) {
  describe(`Submission export over HTTP (storage: ${storage})`, () => {
    let api: TestService;
    before(async () => {
      api = await startTestService({}, { storage });
    });
    after(() => api.stop());

    it('streams CSV by default: attachment named after the slug, header row, escaped formula cells, oldest first', async () => {
      const form = await createForm(api, `export-${storage}`);
      const first = await submitForm(api, form.id, { name: '=HYPERLINK("x")', email: 'a@example.com' });
      const second = await submitForm(api, form.id, { name: 'Bo, "the" second' });
      const res = await api.call('GET', `/forms/${form.id}/submissions/export`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).to.equal(`attachment; filename="export-${storage}-submissions.csv"`);
      expect(res.body.split('\r\n')).to.deep.equal([
        'id,createdAt,submittedBy,name,email',
        `${first.id},${first.createdAt},,"'=HYPERLINK(""x"")",a@example.com`,
        `${second.id},${second.createdAt},,"Bo, ""the"" second",`,
        '',
      ]);
    });

    it('answers a small export whole, with its length, and streams a large one in chunks, every row intact', async function () {
      // 1,100 submits over HTTP: 4 s on the embedded store, up to 9 s on the Mongo double alone on this machine kind.
      this.timeout(60_000);
      const form = await createForm(api, `export-size-${storage}`);
      await submitForm(api, form.id, { name: 'Small' });
      const small = await api.call('GET', `/forms/${form.id}/submissions/export`);
      expect(small.headers.get('content-length')).to.equal(String(Buffer.byteLength(small.body)));
      expect(small.headers.get('transfer-encoding')).to.equal(null);
      // Past 64 KiB of text the rest is streamed: ~1,100 rows of ~70 characters.
      const filler = 'x'.repeat(50);
      for (let wave = 0; wave < 11; wave++) {
        await Promise.all(Array.from({ length: 100 }, (_, i) => submitForm(api, form.id, { name: `${filler}-${wave}-${i}` })));
      }
      const large = await api.call('GET', `/forms/${form.id}/submissions/export`);
      expect(large.status).to.equal(200);
      expect(large.headers.get('transfer-encoding')).to.equal('chunked');
      const rows = (large.body as string).trimEnd().split('\r\n');
      expect(rows).to.have.length(1 + 1 + 1100);
      expect(new Set(rows.slice(2).map((row) => row.split(',')[3])).size, 'every row once').to.equal(1100);
      // §8: a streamed answer over 1 KiB is encoded too, as it streams.
      const url = `${api.baseUrl}/forms/${form.id}/submissions/export`;
      const identity = await rawExport(url, {});
      expect(identity.headers['content-encoding']).to.equal(undefined);
      expect(identity.bytes.toString()).to.equal(large.body);
      for (const [encoding, decode] of [['gzip', gunzipSync], ['br', brotliDecompressSync]] as const) {
        const encoded = await rawExport(url, { 'accept-encoding': encoding });
        expect(encoded.headers['content-encoding'], encoding).to.equal(encoding);
        expect(encoded.headers['vary'], encoding).to.match(/Accept-Encoding/i);
        expect(encoded.headers['content-length'], encoding).to.equal(undefined);
        expect(encoded.bytes.length, encoding).to.be.below(identity.bytes.length / 4);
        expect(decode(encoded.bytes).toString(), encoding).to.equal(large.body);
      }
    });

    it('writes an export again as the form now is, also after the same export was answered before', async () => {
      const form = await createForm(api, `export-again-${storage}`);
      const submitted = await submitForm(api, form.id, { name: 'Ann', email: 'ann@example.com' });
      const csv = async () => (await api.call('GET', `/forms/${form.id}/submissions/export`)).body as string;
      const before = await csv();
      expect(await csv()).to.equal(before); // exported twice: the embedded store's records are kept from here on (decision 0774)
      const [section] = formBody(form.slug).sections as { fields: unknown[] }[];
      const sections = [{ fields: [...section!.fields, { name: 'city', type: 'text', label: { en: 'City' } }] }];
      const updated = await api.call('PATCH', `/forms/update/${form.id}`, { body: { sections } });
      expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
      expect((await csv()).split('\r\n')).to.deep.equal(['id,createdAt,submittedBy,name,email,city', `${submitted.id},${submitted.createdAt},,Ann,ann@example.com,`, '']);
    });

    it('streams NDJSON, one submission per line as the single read answers it', async () => {
      const form = await createForm(api, `export-nd-${storage}`);
      const submitted = [await submitForm(api, form.id, { name: 'a' }), await submitForm(api, form.id, { name: 'b' })];
      const res = await api.call('GET', `/forms/${form.id}/submissions/export?format=ndjson`);
      expect(res.headers.get('content-type')).to.equal('application/x-ndjson');
      const lines = (res.body as string).trimEnd().split('\n').map((line) => JSON.parse(line));
      const read = await api.call('GET', `/forms/submission/${submitted[0].id}`);
      expect(lines).to.deep.equal([read.body.data.submission, submitted[1]]);
    });

    it('answers errors before the first byte in the envelope: 400 Invalid form id, 404 (another tenant’s too), 400 format', async () => {
      const form = await createForm(api, `export-b-${storage}`, {}, { key: TEST_KEYS.b });
      expect((await api.call('GET', '/forms/nope/submissions/export')).body.message).to.equal('Invalid form id');
      expect((await api.call('GET', `/forms/${form.id}/submissions/export?format=xlsx`)).body.message).to.equal('Form not found');
      const foreign = await api.call('GET', `/forms/${form.id}/submissions/export`);
      expect(foreign.body).to.deep.equal({ success: false, statusCode: 404, message: 'Form not found', data: null });
      const format = await api.call('GET', `/forms/${form.id}/submissions/export?format=xlsx`, { key: TEST_KEYS.b });
      expect(format.status).to.equal(400);
      expect(format.body.message).to.equal('Validation failed: query.format must be one of csv, ndjson');
      expect((await api.call('GET', `/forms/${form.id}/submissions/export`, { key: null })).status).to.equal(401);
    });
  });
}

describe('Submission export to a client that stops reading', () => {
  let api: TestService;
  before(async () => {
    api = await startTestService({ CMS_SOCKET_IDLE_TIMEOUT_MS: '1000', CAPTCHA_TIMEOUT_MS: '500' });
  });
  after(() => api.stop());

  it('closes the connection once nothing moved on it for CMS_SOCKET_IDLE_TIMEOUT_MS, letting go of the answer', async function () {
    this.timeout(60_000);
    const fields = Array.from({ length: 10 }, (_, i) => ({ name: `f${i}`, type: 'textarea', label: { en: `F${i}` } }));
    const form = await createForm(api, 'export-stalled', { sections: [{ fields }] });
    const values = Object.fromEntries(fields.map((field) => [field.name, 'x'.repeat(10_000)]));
    for (let wave = 0; wave < 6; wave++) await Promise.all(Array.from({ length: 50 }, () => submitForm(api, form.id, values)));
    // 300 submissions of 100 KB: 30 MB of CSV, far more than the two sockets' buffers hold.
    const socket = connect(api.service.port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write(`GET ${new URL(api.baseUrl).pathname}/forms/${form.id}/submissions/export HTTP/1.1\r\nhost: 127.0.0.1\r\nx-api-key: ${TEST_KEYS.a}\r\n\r\n`);
    socket.pause(); // a client that stops reading: the answer fills both sockets' buffers and stalls
    await new Promise((resolve) => setTimeout(resolve, 3000));
    // Reading again: what the buffers held arrives, and then the end the service gave the connection.
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
    socket.resume();
    const closed = await new Promise<boolean>((resolve) => {
      socket.on('close', () => resolve(true));
      setTimeout(() => resolve(false), 15_000);
    });
    socket.destroy();
    expect(closed, 'the service closed the connection').to.equal(true);
    expect(received.length, 'part of the answer, not all of it').to.be.below(30 * 1000 * 1000);
    expect(received.subarray(-5).toString(), 'no last chunk: the answer was cut').not.to.equal('0\r\n\r\n');
    expect((await api.call('GET', '/forms/list')).status, 'and it goes on serving').to.equal(200);
  });
});
