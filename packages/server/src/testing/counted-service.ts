/**
 * The service over MongoDB storage with every storage command counted (issue 18 item 1): over the
 * collection double always, and over a real server when MONGODB_URI is set (a fresh database
 * `cms_counts_<random>`, dropped at the end). Both count through the same `CommandCounter`, so a
 * test pins one figure for both. The notification and webhook dispatchers are stopped after
 * start-up: their polling is not part of any request (a webhook poll landing inside a counted
 * request made the figures flaky).
 */
import { CommandCounter, MingoDatabaseDouble, openCountedRealMongo, type CountedRealMongo } from '@cms/adapter-mongo/testing';
import type { MongoDatabase } from '@cms/adapter-mongo';
import { WebhookDispatchLoopToken } from '../container/webhooks.module.js';
import { NotificationDispatchLoop } from '../notifications/notification-dispatch.loop.js';
import { startTestService, type TestService, type TestServiceOptions } from './test-service.js';

export type CountedStore = 'mongo-double' | 'real-mongo';

export interface CountedService {
  readonly api: TestService;
  readonly counter: CommandCounter;
  /** The database the service runs on (the double, or the real server's `Db`). */
  readonly db: MongoDatabase;
  /** The real server's database and client, on a real server only. */
  readonly real: CountedRealMongo | undefined;
  stop(): Promise<void>;
}

export const REAL_MONGO_URI = process.env.MONGODB_URI?.trim() || undefined;
export const REAL_MONGO_SKIP_NOTE = 'MONGODB_URI is not set: the command counts and query plans on a real MongoDB are skipped';

export async function startCountedService(
  store: CountedStore,
  env: Record<string, string> = {},
  options: TestServiceOptions = {},
  doubleOptions: ConstructorParameters<typeof MingoDatabaseDouble>[1] = {},
): Promise<CountedService> {
  let real: CountedRealMongo | undefined;
  let db: MongoDatabase;
  let counter: CommandCounter;
  if (store === 'real-mongo') {
    if (!REAL_MONGO_URI) throw new Error(REAL_MONGO_SKIP_NOTE);
    real = await openCountedRealMongo(REAL_MONGO_URI, 'cms_counts');
    db = real.db;
    counter = real.counter;
  } else {
    const double = new MingoDatabaseDouble('cms_double', doubleOptions);
    db = double;
    counter = CommandCounter.onDouble(double);
  }
  const api = await startTestService(env, { ...options, mongoDatabase: db });
  await api.service.container.get(NotificationDispatchLoop).stop();
  await api.service.container.get<NotificationDispatchLoop>(WebhookDispatchLoopToken).stop();
  counter.take();
  return {
    api,
    counter,
    db,
    real,
    async stop() {
      await api.stop();
      counter.detach();
      await real?.close();
    },
  };
}
