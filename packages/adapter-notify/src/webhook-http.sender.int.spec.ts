import { expect } from 'chai';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isWebhookAddressRefused } from '@cms/core';
import { LocalWebhookReceiver } from './testing/local-webhook.receiver.js';
import { HttpWebhookSender } from './webhook-http.sender.js';
import type { HostResolver } from './webhook-url.guard.js';

describe('HttpWebhookSender', () => {
  let receiver: LocalWebhookReceiver;
  beforeEach(async () => (receiver = await LocalWebhookReceiver.start()));
  afterEach(() => receiver.stop());

  const request = (url: string) => ({ url, headers: { 'content-type': 'application/json', 'webhook-id': 'evt-1' }, body: '{"type":"t"}' });
  const port = () => new URL(receiver.url).port;

  describe('when the guard is on (send time)', () => {
    it('refuses a literal loopback address without making a request', async () => {
      const sender = new HttpWebhookSender({ allowPrivateNetworks: false, timeoutMs: 1000 });
      const error = await sender.send(request(receiver.url)).then(() => undefined, (e: unknown) => e);
      expect(isWebhookAddressRefused(error)).to.equal(true);
      expect(receiver.received).to.have.length(0);
    });

    it('refuses a name that now resolves to loopback (DNS changed since create) without making a request', async () => {
      const rebound: HostResolver = async () => ['127.0.0.1'];
      const sender = new HttpWebhookSender({ allowPrivateNetworks: false, timeoutMs: 1000, resolve: rebound });
      const error = await sender.send(request(`http://hooks.example:${port()}/push`)).then(() => undefined, (e: unknown) => e);
      expect(isWebhookAddressRefused(error)).to.equal(true);
      expect(receiver.received).to.have.length(0);
    });

    it('connects to the very address it checked', async () => {
      let asked = 0;
      const resolver: HostResolver = async () => (asked++, ['127.0.0.1']);
      const sender = new HttpWebhookSender({ allowPrivateNetworks: true, timeoutMs: 1000, resolve: resolver });
      expect(await sender.send(request(`http://hooks.example:${port()}/push`))).to.deep.equal({ statusCode: 204 });
      expect(asked).to.equal(1);
      expect(receiver.received).to.have.length(1);
    });
  });

  describe('when private networks are allowed', () => {
    const sender = new HttpWebhookSender({ allowPrivateNetworks: true, timeoutMs: 300 });

    it('posts the body with the headers and answers the status', async () => {
      expect(await sender.send(request(receiver.url))).to.deep.equal({ statusCode: 204 });
      expect(receiver.received[0]).to.deep.include({ method: 'POST', path: '/push', contentType: 'application/json', body: { type: 't' } });
    });

    it('sends a body that is not ASCII whole: its length is counted in bytes', async () => {
      const body = '{"type":"t","name":"Zoë ✓ 😀"}';
      expect(await sender.send({ ...request(receiver.url), body })).to.deep.equal({ statusCode: 204 });
      expect(receiver.received[0]).to.deep.include({ body: { type: 't', name: 'Zoë ✓ 😀' } });
    });

    it('answers a redirect as its status and does not follow it', async () => {
      receiver.answers = [{ status: 302, location: `${receiver.url}/elsewhere` }];
      expect(await sender.send(request(receiver.url))).to.deep.equal({ statusCode: 302 });
      expect(receiver.received).to.have.length(1);
    });

    it('gives up after timeoutMs on a receiver that never answers, without the URL in the error', async () => {
      receiver.answers = ['hang'];
      const started = performance.now();
      const error = (await sender.send(request(`${receiver.url}?token=secret`)).then(() => undefined, (e: unknown) => e)) as Error;
      expect(error.message).to.equal('webhook receiver gave no answer within 300 ms');
      expect(performance.now() - started).to.be.within(250, 1500);
    });

    it('takes a status line in time as the answer, and cuts a body still coming at the deadline', async () => {
      let closedAt = 0;
      const slow = createServer((req, res) => {
        req.resume();
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('taken; the rest of this answer takes a while');
        res.on('close', () => (closedAt = performance.now()));
      });
      await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
      try {
        const sender = new HttpWebhookSender({ allowPrivateNetworks: true, timeoutMs: 300 });
        const started = performance.now();
        expect(await sender.send(request(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/hook`))).to.deep.equal({ statusCode: 200 });
        expect(performance.now() - started, 'answered at the status line').to.be.below(250);
        await new Promise((resolve) => setTimeout(resolve, 600));
        expect(closedAt - started, 'the body cut at the deadline').to.be.within(250, 600);
      } finally {
        slow.closeAllConnections();
        await new Promise((resolve) => slow.close(resolve));
      }
    });

    it('reports a refused connection without the URL', async () => {
      const url = receiver.url;
      await receiver.stop();
      receiver = await LocalWebhookReceiver.start();
      const error = (await sender.send(request(url.replace(/:\d+\//, ':1/'))).then(() => undefined, (e: unknown) => e)) as Error;
      expect(error.message).to.equal('webhook receiver unreachable (ECONNREFUSED)');
    });
  });
});
