/**
 * The race contracts on the embedded store: every async method of the repositories the races
 * use (the webhook stores among them) waits at the gate, so use cases interleave at each store
 * call (docs/testing.md, "racing operations in drawn orders").
 */
import { memoryStores } from '../embedded/core-stores.js';
import { contentRacesContract, formRacesContract } from '../testing/contracts/index.js';
import { scheduledStores } from '../testing/race-gates.js';

contentRacesContract('embedded store', async (gate) => scheduledStores(memoryStores(), ['authors', 'categories', 'articles', 'comments', 'reactions', 'webhooks', 'webhookDeliveries'], gate));
formRacesContract('embedded store', async (gate) => scheduledStores(memoryStores(), ['forms', 'submissions', 'outbox', 'webhooks', 'webhookDeliveries'], gate));
