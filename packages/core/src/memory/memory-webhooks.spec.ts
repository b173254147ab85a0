import { webhookDeliveryOutboxContract, webhookRepositoryContract } from '../testing/contracts/index.js';
import { MemoryWebhookDeliveryOutbox } from './memory-webhook-delivery.outbox.js';
import { MemoryWebhookRepository } from './memory-webhook.repository.js';

webhookRepositoryContract('memory', async () => ({ repository: new MemoryWebhookRepository() }));
webhookDeliveryOutboxContract('memory', async () => ({ repository: { outbox: new MemoryWebhookDeliveryOutbox(), webhooks: new MemoryWebhookRepository() } }));
