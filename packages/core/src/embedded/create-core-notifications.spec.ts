/**
 * Notifications when embedded (issue 22 item 5): `createCore({ notifications })` builds the
 * dispatcher over the core's outbox; the embedder starts it, sets its interval and batch size,
 * and `stop()` waits for the batch in flight. Timers are sinon's fake ones.
 */
import { expect } from 'chai';
import sinon from 'sinon';
import { StaticCaptchaVerifier } from '../captcha/captcha.ports.js';
import type { EmailMessage, EmailSender } from '../notifications/notification-delivery.ports.js';
import { ManualClock } from '../shared/clock.js';
import { sampleNotificationJob } from '../testing/notification-records.js';
import { createCore } from './create-core.js';

class RecordingEmailSender implements EmailSender {
  readonly sent: EmailMessage[] = [];
  /** When set, each send waits for it: a batch stays in flight until the test releases it. */
  gate: Promise<void> | undefined;
  async send(message: EmailMessage): Promise<void> {
    await this.gate;
    this.sent.push(message);
  }
}

describe('createCore: the notification dispatcher', () => {
  let timers: sinon.SinonFakeTimers;
  let email: RecordingEmailSender;
  const clock = new ManualClock('2026-05-01T10:00:00.000Z');
  const build = (pace: { intervalMs: number; batchSize: number }) =>
    createCore({ captcha: new StaticCaptchaVerifier(new Map()), clock, notifications: { email, ...pace } });
  const queue = (core: ReturnType<typeof build>, count: number) =>
    core.stores.outbox.enqueue(Array.from({ length: count }, () => sampleNotificationJob({ recipients: ['forms@acme.test'] })), clock.now());

  beforeEach(() => {
    timers = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    email = new RecordingEmailSender();
  });
  afterEach(() => timers.restore());

  it('sends nothing until started, then drains full batches at once and polls at the interval set', async () => {
    const core = build({ intervalMs: 5000, batchSize: 2 });
    await queue(core, 3);
    await timers.tickAsync(10_000);
    expect(email.sent).to.have.length(0);
    core.notifications.dispatcher.start();
    await timers.tickAsync(10);
    expect(email.sent).to.have.length(3);
    await queue(core, 1);
    await timers.tickAsync(4980);
    expect(email.sent).to.have.length(3);
    await timers.tickAsync(30);
    expect(email.sent).to.have.length(4);
    await core.notifications.dispatcher.stop();
    await queue(core, 1);
    await timers.tickAsync(20_000);
    expect(email.sent).to.have.length(4);
    expect(await core.stores.outbox.countByStatus()).to.deep.include({ sent: 4, pending: 1 });
  });

  it('stop() resolves only after the batch in flight has its outcomes recorded', async () => {
    const core = build({ intervalMs: 1000, batchSize: 10 });
    await queue(core, 2);
    let release!: () => void;
    email.gate = new Promise((resolve) => (release = resolve));
    core.notifications.dispatcher.start();
    await timers.tickAsync(0);
    let stopped = false;
    const stopping = core.notifications.dispatcher.stop().then(() => (stopped = true));
    await timers.tickAsync(100);
    expect(stopped).to.equal(false);
    expect(email.sent).to.have.length(0);
    release();
    await stopping;
    expect(email.sent).to.have.length(2);
    expect(await core.stores.outbox.countByStatus()).to.deep.include({ sent: 2, pending: 0 });
  });
});
