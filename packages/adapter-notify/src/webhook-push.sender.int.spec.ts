import { expect } from 'chai';
import { LocalWebhookReceiver } from './testing/local-webhook.receiver.js';
import { WebhookPushSender } from './webhook-push.sender.js';

describe('WebhookPushSender', () => {
  let receiver: LocalWebhookReceiver;
  beforeEach(async () => (receiver = await LocalWebhookReceiver.start()));
  afterEach(() => receiver.stop());
  const failureOf = (promise: Promise<void>) => promise.then(() => null, (e: Error) => e.message);

  describe('when the receiver answers 2xx', () => {
    it('POSTs the payload as JSON', async () => {
      receiver.answers = [{ status: 202 }];
      await new WebhookPushSender({ url: receiver.url, timeoutMs: 2000 }).send({ id: 'j1', event: 'form.submission', values: { a: [1, 2] } });
      expect(receiver.received).to.have.length(1);
      expect(receiver.received[0]).to.deep.include({ method: 'POST', path: '/push', contentType: 'application/json' });
      expect(receiver.received[0]?.body).to.deep.equal({ id: 'j1', event: 'form.submission', values: { a: [1, 2] } });
      expect(receiver.received[0]?.traceparent).to.equal(undefined);
    });

    it('sends the attempt\'s span as traceparent', async () => {
      const trace = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: 'b7ad6b7169203331', flags: '01' };
      await new WebhookPushSender({ url: receiver.url, timeoutMs: 2000 }).send({ id: 'j1' }, trace);
      expect(receiver.received[0]?.traceparent).to.equal('00-4bf92f3577b34da6a3ce929d0e0e4736-b7ad6b7169203331-01');
    });
  });

  describe('when the receiver answers otherwise', () => {
    for (const status of [500, 404, 400]) {
      it(`fails on HTTP ${status}`, async () => {
        receiver.answers = [{ status }];
        expect(await failureOf(new WebhookPushSender({ url: receiver.url, timeoutMs: 2000 }).send({ id: 'j1' }))).to.equal(`push webhook answered HTTP ${status}`);
      });
    }
  });

  describe('when the receiver redirects', () => {
    it('fails rather than following (a redirected POST would arrive elsewhere as a GET)', async () => {
      receiver.answers = [{ status: 302, location: '/elsewhere' }, { status: 200 }];
      expect(await failureOf(new WebhookPushSender({ url: receiver.url, timeoutMs: 2000 }).send({ id: 'j1' }))).to.equal('push webhook answered HTTP 302');
      expect(receiver.received.map((r) => r.path)).to.deep.equal(['/push']);
    });
  });

  describe('when the receiver never answers', () => {
    it('fails near the timeout', async () => {
      receiver.answers = ['hang'];
      const started = performance.now();
      const error = await failureOf(new WebhookPushSender({ url: receiver.url, timeoutMs: 250 }).send({ id: 'j1' }));
      expect(performance.now() - started).to.be.within(230, 1500);
      expect(error).to.equal('push webhook gave no answer within 250 ms');
    });
  });

  describe('when nothing listens', () => {
    it('fails without repeating the URL (it may carry a token)', async () => {
      const url = `${receiver.url}?token=s3cret`;
      await receiver.stop();
      receiver = await LocalWebhookReceiver.start();
      const error = await failureOf(new WebhookPushSender({ url, timeoutMs: 2000 }).send({ id: 'j1' }));
      expect(error).to.match(/^push webhook unreachable \(fetch failed: .*ECONNREFUSED/);
      expect(error).not.to.contain('s3cret');
    });

    it('fails without repeating the URL when fetch quotes it (a URL it cannot parse or use)', async () => {
      for (const url of ['http://127.0.0.1:99999/push?token=s3cret', 'http://user:s3cret@127.0.0.1:1/push']) {
        const error = await failureOf(new WebhookPushSender({ url, timeoutMs: 2000 }).send({ id: 'j1' }));
        expect(error, url).to.match(/^push webhook unreachable \(/);
        expect(error, url).not.to.contain('s3cret');
      }
    });
  });
});
