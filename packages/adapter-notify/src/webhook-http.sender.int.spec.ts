import { expect } from 'chai';
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

    it('reports a refused connection without the URL', async () => {
      const url = receiver.url;
      await receiver.stop();
      receiver = await LocalWebhookReceiver.start();
      const error = (await sender.send(request(url.replace(/:\d+\//, ':1/'))).then(() => undefined, (e: unknown) => e)) as Error;
      expect(error.message).to.equal('webhook receiver unreachable (ECONNREFUSED)');
    });
  });
});
