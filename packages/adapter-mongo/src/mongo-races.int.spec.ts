/**
 * The race contracts of core on the Mongo repositories over the collection double, every command
 * waiting at the race gate (`gatedDatabase`): racing use cases interleave between the commands of
 * one repository method, not only between methods; the webhook outbox's too, so an event's
 * staging and confirmation interleave with the change. A fresh database per race, 200 races per
 * contract unless RACE_RUNS says. Not run on a real server: a fresh database per race and a
 * server's round trips would make even these take minutes.
 */
import { contentRacesContract, formRacesContract } from '@cms/core/testing/contracts';
import type { RaceGate } from '@cms/core/testing';
import { ensureIndexes } from './storage/mongo-collections.js';
import { createMongoRepositories } from './storage/mongo-storage.js';
import { gatedDatabase } from './testing/gated-database.js';
import { MingoDatabaseDouble } from './testing/mingo-database-double.js';

/** A race here takes about 35 ms (a fresh database, its indexes, a turn of the event loop per command). */
const OPTIONS = { runs: 200 };

async function gatedRepositories(gate: RaceGate) {
  const db = new MingoDatabaseDouble();
  await ensureIndexes(db);
  return createMongoRepositories(gatedDatabase(db, gate));
}

contentRacesContract('mongo on the collection double, each command gated', async (gate) => {
  const { authors, categories, articles, comments, reactions, webhooks, webhookDeliveries } = await gatedRepositories(gate);
  return { authors, categories, articles, comments, reactions, webhooks, webhookDeliveries };
}, OPTIONS);

formRacesContract('mongo on the collection double, each command gated', async (gate) => {
  const { forms, submissions, notificationOutbox, webhooks, webhookDeliveries } = await gatedRepositories(gate);
  return { forms, submissions, outbox: notificationOutbox, webhooks, webhookDeliveries };
}, OPTIONS);
