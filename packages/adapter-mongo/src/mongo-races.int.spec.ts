/**
 * The race and crash contracts of core on the Mongo repositories over the collection double,
 * every command waiting at the gate (`gatedDatabase`). Races: racing use cases interleave
 * between the commands of one repository method, not only between methods; the webhook
 * outbox's too, so an event's staging and confirmation interleave with the change (200 races
 * per contract unless RACE_RUNS says). Crashes: each multi-step write is killed at every
 * command, then retried on a new core. A fresh database each time. Not run on a real server: a
 * fresh database per race or crash point and a server's round trips would take minutes.
 */
import { contentCrashesContract, contentRacesContract, formCrashesContract, formRacesContract } from '@cms/core/testing/contracts';
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

async function contentStores(gate: RaceGate) {
  const { authors, categories, articles, comments, reactions, webhooks, webhookDeliveries } = await gatedRepositories(gate);
  return { authors, categories, articles, comments, reactions, webhooks, webhookDeliveries };
}

async function formStores(gate: RaceGate) {
  const { forms, submissions, notificationOutbox, webhooks, webhookDeliveries } = await gatedRepositories(gate);
  return { forms, submissions, outbox: notificationOutbox, webhooks, webhookDeliveries };
}

const STORE = 'mongo on the collection double, each command gated';
contentRacesContract(STORE, contentStores, OPTIONS);
formRacesContract(STORE, formStores, OPTIONS);
contentCrashesContract(STORE, contentStores);
formCrashesContract(STORE, formStores);
