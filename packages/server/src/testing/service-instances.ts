/**
 * Several instances of the service over one shared store (issue 18 item 3): each is a whole
 * service (its own container, Koa app, HTTP listener and notification dispatcher) in this
 * process, and they share nothing but the database: the Mongo collection double, or a fresh
 * database on a real server when MONGODB_URI is set. Instances start at once, as a rolling
 * deployment's would (each ensures the indexes and registers the configured keys).
 */
import type { Container } from 'inversify';
import type { MongoDatabase } from '@cms/adapter-mongo';
import { MingoDatabaseDouble, openCountedRealMongo } from '@cms/adapter-mongo/testing';
import { REAL_MONGO_URI } from './counted-service.js';
import { startTestService, type TestService, type TestServiceOptions } from './test-service.js';

export type SharedStore = 'mongo-double' | 'real-mongo';

export interface ServiceInstances {
  readonly db: MongoDatabase;
  readonly all: readonly TestService[];
  /** The instance that serves the `i`-th request of a round robin. */
  at(i: number): TestService;
  stop(): Promise<void>;
}

export async function startInstances(
  store: SharedStore,
  count: number,
  env: Record<string, string>,
  options: Omit<TestServiceOptions, 'configure' | 'storage' | 'mongoDatabase'> & { configure?: (container: Container, index: number) => void } = {},
): Promise<ServiceInstances> {
  const real = store === 'real-mongo' && REAL_MONGO_URI ? await openCountedRealMongo(REAL_MONGO_URI, 'cms_instances') : undefined;
  if (store === 'real-mongo' && !real) throw new Error('MONGODB_URI is not set');
  const db: MongoDatabase = real?.db ?? new MingoDatabaseDouble();
  const { configure, ...rest } = options;
  const all = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      startTestService(env, { ...rest, mongoDatabase: db, ...(configure ? { configure: (container: Container) => configure(container, index) } : {}) }),
    ),
  );
  return {
    db,
    all,
    at: (i) => all[i % all.length]!,
    async stop() {
      await Promise.all(all.map((instance) => instance.stop()));
      await real?.close();
    },
  };
}

/** Runs `tasks` with at most `width` in flight, keeping their results in order. */
export async function inWaves<T>(tasks: ReadonlyArray<() => Promise<T>>, width: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, worker));
  return results;
}
