/**
 * Shared shape of every repository contract suite: a factory that yields a fresh, empty
 * repository (and cleans up after itself). The same suite runs against the in-memory adapter,
 * the Mongo adapter on a collection double, and the Mongo adapter on a real server.
 */
export interface RepositoryFixture<R> {
  readonly repository: R;
  readonly cleanup?: () => Promise<void>;
}

export type RepositoryFactory<R> = () => Promise<RepositoryFixture<R>>;

/** Registers mocha hooks that give each test a fresh repository. */
export function useRepository<R>(factory: RepositoryFactory<R>): () => R {
  let fixture: RepositoryFixture<R> | undefined;
  beforeEach(async () => {
    fixture = await factory();
  });
  afterEach(async () => {
    await fixture?.cleanup?.();
    fixture = undefined;
  });
  return () => {
    if (!fixture) throw new Error('repository used outside a test');
    return fixture.repository;
  };
}

/**
 * Tries to change a record a repository returned. Adapters may hand out frozen records (the
 * in-memory ones do, so readers share them): then the change throws a TypeError, which is
 * swallowed here. Either way the suite then checks that the store did not change.
 */
export function tryToChange(change: () => void): void {
  try {
    change();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
}
