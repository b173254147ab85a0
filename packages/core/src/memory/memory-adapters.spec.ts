import { expect } from 'chai';
import { defaultRepurposeTemplate } from '../repurpose/repurpose-template.js';
import {
  apiKeyRepositoryContract,
  dashboardConfigRepositoryContract,
  notificationOutboxContract,
  repurposeTemplateRepositoryContract,
  tenantRepositoryContract,
} from '../testing/contracts/index.js';
import { MemoryDashboardConfigRepository } from './memory-dashboard-config.repository.js';
import { MemoryNotificationOutbox } from './memory-notification-outbox.js';
import { MemoryRepurposeTemplateRepository } from './memory-repurpose-template.repository.js';
import { MemoryApiKeyRepository, MemoryTenantRepository } from './memory-tenancy.repository.js';
import { expectCostIndependentOf } from '../testing/cost-growth.js';
import { sampleNotificationJob } from '../testing/notification-records.js';
import { newId } from '../shared/ids.js';

tenantRepositoryContract('memory', async () => ({ repository: new MemoryTenantRepository() }));
apiKeyRepositoryContract('memory', async () => ({ repository: new MemoryApiKeyRepository() }));
dashboardConfigRepositoryContract('memory', async () => ({ repository: new MemoryDashboardConfigRepository() }));
repurposeTemplateRepositoryContract('memory', async () => ({ repository: new MemoryRepurposeTemplateRepository() }));
notificationOutboxContract('memory', async () => ({ repository: new MemoryNotificationOutbox() }));

describe('MemoryRepurposeTemplateRepository.applyChanges', () => {
  /** Frozen all the way down, checked member by member (not through the snapshot mark). */
  const frozenThroughout = (value: unknown): boolean =>
    typeof value !== 'object' || value === null || (Object.isFrozen(value) && Object.values(value).every(frozenThroughout));

  it('makes one new node per changed path, shares the untouched ones and leaves the earlier template as it was', async () => {
    const templates = new MemoryRepurposeTemplateRepository();
    const before = await templates.findOrCreate(defaultRepurposeTemplate('acme', new Date('2026-01-01T00:00:00Z')));
    const beforeText = JSON.stringify(before);
    const after = (await templates.applyChanges(
      'acme',
      [
        { path: ['platforms', 'twitter', 'tone'], value: 'casual' },
        { path: ['platforms', 'twitter', 'maxHashtags'], value: 7 },
        { path: ['platforms', 'twitter', 'tone'], value: 'witty' },
        { path: ['defaults', 'length'], value: 'short' },
      ],
      { updatedBy: 'u1', updatedAt: new Date('2026-01-02T00:00:00Z') },
    ))!;

    expect(after.platforms.twitter).to.include({ tone: 'witty', maxHashtags: 7, length: before.platforms.twitter.length });
    expect(after.defaults).to.deep.equal({ ...before.defaults, length: 'short' });
    expect(after).to.include({ updatedBy: 'u1' });
    expect(after.updatedAt.toISOString()).to.equal('2026-01-02T00:00:00.000Z');
    expect(after.platforms.linkedin).to.equal(before.platforms.linkedin);
    expect(after.platforms.twitter).to.not.equal(before.platforms.twitter);
    expect(frozenThroughout(after)).to.equal(true);
    expect(JSON.stringify(before)).to.equal(beforeText);
  });
});

describe('MemoryNotificationOutbox', () => {
  const NOW = new Date('2026-03-01T10:00:00.000Z');
  /** Jobs of another tenant's forms: what a delete or a recovery in `acme` must not read. */
  const addOtherJobs = (outbox: MemoryNotificationOutbox, count: number, now = NOW) => async () => {
    const jobs = Array.from({ length: count }, () => sampleNotificationJob({ tenantId: 'other', message: { ...sampleNotificationJob().message, formId: newId(), submissionId: newId() } }));
    await outbox.enqueue(jobs, now);
  };

  describe('when a submission’s or a form’s jobs are dropped or listed', () => {
    it('reads those jobs only, however many other jobs the outbox holds', async () => {
      const outbox = new MemoryNotificationOutbox();
      const { formId, submissionId } = sampleNotificationJob().message;
      await outbox.enqueue([sampleNotificationJob(), sampleNotificationJob({ channel: 'push', recipients: [] })], NOW);
      const operations = async () => {
        await outbox.listBySubmission('acme', formId, submissionId);
        await outbox.dropJobs('acme', formId, newId());
        await outbox.dropJobs('acme', newId());
      };
      await expectCostIndependentOf('list and drops', operations, addOtherJobs(outbox, 20_000));
      expect(await outbox.listBySubmission('acme', formId, submissionId)).to.have.length(2);
    });
  });

  describe('when due jobs are claimed', () => {
    it('reads the due jobs, however many finished or later jobs the outbox keeps', async () => {
      const outbox = new MemoryNotificationOutbox();
      const later = new Date(NOW.getTime() + 3_600_000);
      // Finished jobs (kept a day after their last attempt) and jobs waiting for a retry, all
      // enqueued and tried before the two due jobs were enqueued.
      const earlier = new Date(NOW.getTime() - 1_000);
      const addKeptJobs = async () => {
        await addOtherJobs(outbox, 20_000, earlier)();
        const claimed = await outbox.claimDue(earlier, 60_000, 20_000);
        expect(claimed.every((job) => job.tenantId === 'other')).to.equal(true);
        for (const [i, job] of claimed.entries()) {
          await outbox.complete(job.id, i % 2 === 0 ? { status: 'sent' } : { status: 'retry', error: 'HTTP 500', nextAttemptAt: later }, earlier);
        }
      };
      await outbox.enqueue([sampleNotificationJob(), sampleNotificationJob({ channel: 'push', recipients: [] })], NOW);
      // No lease: every run claims the two due jobs again.
      const claim = async () => expect(await outbox.claimDue(NOW, 0, 10)).to.have.length(2);
      await expectCostIndependentOf('claim', claim, addKeptJobs);
    });
  });

  describe('when jobs are counted by status (every scrape of GET /metrics)', () => {
    it('answers without reading the jobs', async () => {
      const outbox = new MemoryNotificationOutbox();
      await outbox.enqueue([sampleNotificationJob()], NOW);
      const count = async () => expect((await outbox.countByStatus()).pending).to.be.above(0);
      await expectCostIndependentOf('count', count, addOtherJobs(outbox, 20_000), 0.25);
    });
  });
});
