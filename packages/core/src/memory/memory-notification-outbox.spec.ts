import { notificationOutboxContract } from '../testing/index.js';
import { MemoryNotificationOutbox } from './memory-notification-outbox.js';

notificationOutboxContract('memory', async () => ({ repository: new MemoryNotificationOutbox() }));
