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
