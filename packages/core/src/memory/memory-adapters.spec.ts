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
