/**
 * The race and crash contracts on the embedded store: every async method of the repositories
 * the writes use (the webhook stores among them) waits at the gate, so use cases interleave at
 * each store call, and a killed write dies at each (docs/testing.md, "racing operations in drawn
 * orders" and "writes killed at each store call").
 */
import { memoryStores } from '../embedded/core-stores.js';
import { contentCrashesContract, contentRacesContract, formCrashesContract, formRacesContract } from '../testing/contracts/index.js';
import { scheduledStores, type RaceGate } from '../testing/race-gates.js';

const contentStores = async (gate: RaceGate) => scheduledStores(memoryStores(), ['authors', 'categories', 'articles', 'comments', 'reactions', 'webhooks', 'webhookDeliveries'], gate);
const formStores = async (gate: RaceGate) => scheduledStores(memoryStores(), ['forms', 'submissions', 'outbox', 'webhooks', 'webhookDeliveries'], gate);

contentRacesContract('embedded store', contentStores);
formRacesContract('embedded store', formStores);
contentCrashesContract('embedded store', contentStores);
formCrashesContract('embedded store', formStores);
