import { expect } from 'chai';
import { Agent, request } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { Container } from 'inversify';
import { DashboardConfigRepositoryToken, DispatchWebhooks, WebhookDeliveryOutboxToken, type DashboardConfigRepository, type WebhookDeliveryOutbox } from '@cms/core';
import { loadConfig } from './config/service-config.js';
import { createForm } from './e2e/form-requests.js';
import { ServerTokens, type StorageLifecycle } from './container/server-tokens.js';
import { startService } from './service.js';
import { engagementClient } from './testing/engagement-client.js';
import { FAST_WEBHOOKS, StandardWebhookReceiver } from './testing/standard-webhook.receiver.js';
import { CapturingLogger, startTestService, TEST_KEYS, TEST_TENANTS } from './testing/test-service.js';

describe('startService', () => {
  describe('when no API key is configured on the embedded store', () => {
    it('creates tenant default with a generated key that works', async () => {
      const service = await startService(loadConfig({ PORT: '0', CMS_REQUEST_LOG: 'off' }), { logger: new CapturingLogger() });
      try {
        expect(service.generatedKey).to.match(/^cms_[A-Za-z0-9_-]{43}$/);
        const res = await fetch(`${service.url}/cms/ai/repurpose/template`, { headers: { 'x-api-key': service.generatedKey! } });
        expect(res.status).to.equal(200);
        expect(((await res.json()) as { data: { tenantId: string } }).data.tenantId).to.equal('default');
      } finally {
        await service.stop();
      }
    });
  });

  describe('when its port is already taken', () => {
    it('rejects with the listen error naming PORT, having closed the storage it opened', async () => {
      const taken = createTcpServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const port = (taken.address() as { port: number }).port;
      let closes = 0;
      const observeClose = (container: Container) => {
        const storage = container.get<StorageLifecycle>(ServerTokens.Storage);
        const observed: StorageLifecycle = {
          kind: storage.kind,
          ready: () => storage.ready(),
          close: async () => {
            closes += 1;
            await storage.close();
          },
        };
        container.rebind<StorageLifecycle>(ServerTokens.Storage).toConstantValue(observed);
      };
      try {
        const config = loadConfig({ PORT: String(port), HOST: '127.0.0.1', CMS_REQUEST_LOG: 'off' });
        const error = await startService(config, { logger: new CapturingLogger(), configure: observeClose }).then(
          async (service) => {
            await service.stop();
            return expect.fail(`the service listened on taken port ${port}`);
          },
          (e: Error) => e,
        );
        expect(error).to.include({ name: 'ConfigError' });
        expect(error.message).to.match(new RegExp(`^PORT ${port} is already in use on 127\\.0\\.0\\.1 \\(listen EADDRINUSE`));
        expect(closes, 'storage closes').to.equal(1);
      } finally {
        await new Promise<void>((resolve) => taken.close(() => resolve()));
      }
    });
  });

  describe('when a client keeps its connection open', () => {
    it('tells it an idle connection stays open 65 s (Keep-Alive: timeout=65), longer than the 60 s idle timeout of common load balancers', async () => {
      const service = await startService(loadConfig({ PORT: '0', CMS_REQUEST_LOG: 'off' }), { logger: new CapturingLogger() });
      const agent = new Agent({ keepAlive: true });
      try {
        const headers = await new Promise<Record<string, string | string[] | undefined>>((resolve, reject) => {
          request(`${service.url}/healthz`, { agent }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.headers));
          })
            .on('error', reject)
            .end();
        });
        expect(headers).to.include({ connection: 'keep-alive', 'keep-alive': 'timeout=65' });
      } finally {
        agent.destroy();
        await service.stop();
      }
    });
  });

  describe('when it is stopped twice at once (two signals, say)', () => {
    it('shuts down once: one stopping line, one stopped line, both calls settled', async () => {
      const logger = new CapturingLogger();
      const service = await startService(loadConfig({ PORT: '0', CMS_REQUEST_LOG: 'off' }), { logger });
      await Promise.all([service.stop(), service.stop()]);
      const stops = logger.lines.filter((line) => line.message.startsWith('service stop')).map((line) => line.message);
      expect(stops).to.deep.equal(['service stopping: in-flight requests finish, /readyz answers 503', 'service stopped']);
    });
  });

  describe('when it is stopped with a request in flight', () => {
    it('finishes that request, then refuses new connections', async () => {
      const api = await startTestService();
      const repo = api.service.container.get<DashboardConfigRepository>(DashboardConfigRepositoryToken);
      const original = repo.upsert.bind(repo);
      let entered!: () => void;
      const inside = new Promise<void>((resolve) => (entered = resolve));
      repo.upsert = async (record) => {
        entered();
        await new Promise((resolve) => setTimeout(resolve, 150));
        return original(record);
      };
      const slow = api.call('PUT', '/reports/dashboardConfig', { headers: { 'x-user-id': 'u1' }, body: {} });
      await inside;
      const stopped = api.stop();
      const res = await slow;
      await stopped;
      expect(res.status).to.equal(200);
      const refused = await new Promise<string>((resolve) => {
        const req = request(`${api.baseUrl}/ai/repurpose/template`, { headers: { 'x-api-key': TEST_KEYS.a } }, () => resolve('answered'));
        req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
        req.end();
      });
      expect(refused).to.equal('ECONNREFUSED');
    });
  });

  describe('when it is stopped with a request that outlasts the grace period', () => {
    it('cuts it when the grace period is over, and says so in the log, between its start and stop lines', async () => {
      const logger = new CapturingLogger();
      const api = await startTestService({ CMS_SHUTDOWN_GRACE_MS: '200' }, { logger });
      const repo = api.service.container.get<DashboardConfigRepository>(DashboardConfigRepositoryToken);
      let entered!: () => void;
      const inside = new Promise<void>((resolve) => (entered = resolve));
      repo.upsert = async () => {
        entered();
        return new Promise(() => undefined); // never settles
      };
      const hung = api.call('PUT', '/reports/dashboardConfig', { headers: { 'x-user-id': 'u1' }, body: {} }).then(
        () => 'answered',
        (error: NodeJS.ErrnoException) => error.cause ?? error.code ?? 'failed',
      );
      await inside;
      await api.stop();
      expect(await hung).to.not.equal('answered');
      const lifecycle = logger.lines.filter((line) => line.message.startsWith('service ') || line.message.startsWith('grace period'));
      expect(lifecycle.map((line) => [line.level, line.message])).to.deep.equal([
        ['info', 'service started'],
        ['info', 'service stopping: in-flight requests finish, /readyz answers 503'],
        ['warn', 'grace period over: requests still in flight were cut'],
        ['info', 'service stopped'],
      ]);
      expect(lifecycle[0]).to.deep.include({ storage: 'memory', production: false });
      expect(lifecycle[1]).to.deep.include({ inFlight: 1, graceMs: 200 });
      expect(lifecycle[2]).to.deep.include({ requests: 1, graceMs: 200 });
    });
  });

  describe('when it is stopped with a webhook delivery in flight', () => {
    it('waits for its answer and records its outcome before closing the store, though later passes have run', async () => {
      const api = await startTestService(FAST_WEBHOOKS);
      const receiver = await StandardWebhookReceiver.start();
      try {
        let answer!: () => void;
        receiver.answers = [{ status: 204, heldUntil: new Promise<void>((resolve) => (answer = resolve)) }];
        const admin = await engagementClient(api).bearer('admin');
        const created = await api.call('POST', '/webhooks/create', { headers: admin, body: { url: receiver.url(), events: ['form.created'] } });
        const webhookId: string = created.body.data.webhook.id;
        receiver.secret = created.body.data.webhook.secret;
        await createForm(api, 'held');
        await receiver.waitFor(1);
        await new Promise((resolve) => setTimeout(resolve, 100)); // passes every 20 ms go on meanwhile
        let stopped = false;
        const stopping = api.stop().then(() => (stopped = true));
        await new Promise((resolve) => setTimeout(resolve, 150));
        expect(stopped, 'stopped before the delivery had its answer').to.equal(false);
        answer();
        await stopping;
        const outbox = api.service.container.get<WebhookDeliveryOutbox>(WebhookDeliveryOutboxToken);
        const [delivery] = await outbox.listByWebhook(TEST_TENANTS.a, webhookId, 10);
        expect(delivery).to.deep.include({ status: 'delivered', attempts: 1, lastStatusCode: 204 });
      } finally {
        await api.stop();
        await receiver.stop();
      }
    });
  });

  describe('when it is stopped on the embedded store with deliveries due', () => {
    // Passes every minute: only the stop's last pass can send what is staged after start-up.
    const SLOW_PASSES = { ...FAST_WEBHOOKS, NOTIFY_POLL_MS: '60000', NOTIFY_RETRY_BASE_MS: '60000', NOTIFY_RETRY_MAX_MS: '60000' };

    it('sends them in one last pass, and warns of what still goes unsent', async () => {
      const logger = new CapturingLogger();
      const api = await startTestService(SLOW_PASSES, { logger });
      const receiver = await StandardWebhookReceiver.start();
      const failing = await StandardWebhookReceiver.start();
      try {
        failing.answers = [{ status: 500 }];
        const admin = await engagementClient(api).bearer('admin');
        for (const target of [receiver, failing]) {
          const created = await api.call('POST', '/webhooks/create', { headers: admin, body: { url: target.url(), events: ['form.created'] } });
          target.secret = created.body.data.webhook.secret;
        }
        await createForm(api, 'staged-before-the-stop');
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect([receiver.received.length, failing.received.length], 'nothing sent before the stop').to.deep.equal([0, 0]);
        await api.stop();
        expect(receiver.received.map((request) => request.verified)).to.deep.equal([true]);
        expect(failing.received).to.have.length(1);
        const warning = logger.lines.find((line) => line.message.startsWith('stopping with notifications or webhook deliveries not sent'));
        expect(warning).to.deep.include({ level: 'warn', notificationJobs: 0, webhookDeliveries: 1 });
      } finally {
        await api.stop();
        await receiver.stop();
        await failing.stop();
      }
    });

    it('stops all the same when the last pass fails, saying so', async () => {
      const logger = new CapturingLogger();
      const failingPass = { execute: async () => Promise.reject(new Error('store gone')) };
      const api = await startTestService(SLOW_PASSES, { logger, configure: (container) => void container.rebind(DispatchWebhooks).toConstantValue(failingPass as never) });
      await api.stop();
      expect(logger.lines.find((line) => line.message === 'last dispatch pass before the stop failed')).to.deep.include({ level: 'error', error: 'Error: store gone' });
    });
  });
});
