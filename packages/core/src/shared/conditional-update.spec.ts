import { expect } from 'chai';
import { domainErrorOf } from '../testing/expect-domain-error.js';
import { conditionalUpdate, patchOf, type UpdateSteps } from './conditional-update.js';
import { entityTag } from './entity-tag.js';

interface Item {
  readonly id: string;
  readonly name: string;
  readonly updatedAt: Date;
}

let storeCount = 0;

/** A one-record store whose write fails the first `losses` times, as if another writer got there first. */
function steps(initial: Item | null, losses = 0, body: unknown = { name: 'new' }): UpdateSteps<Item> & { stored: () => Item | null; writes: number } {
  let stored = initial;
  let lost = 0;
  const store = {
    key: `item\0${++storeCount}`,
    writes: 0,
    stored: () => stored,
    read: async () => stored,
    notFound: () => new Error('not found') as never,
    view: (item: Item) => item,
    build: async (current: Item) => ({ ...current, ...(patchOf(body, ['name']) as { name: string }), updatedAt: new Date(current.updatedAt.getTime() + 1) }),
    write: async (next: Item) => {
      store.writes += 1;
      if (lost < losses) {
        lost += 1;
        stored = { ...stored!, updatedAt: new Date(stored!.updatedAt.getTime() + 10) };
        return false;
      }
      stored = next;
      return true;
    },
  };
  return store;
}

const item: Item = { id: 'a', name: 'old', updatedAt: new Date(0) };

describe('conditionalUpdate', () => {
  it('writes nothing for an empty body, and refuses a body that is not an object', async () => {
    const store = steps(item);
    expect(await conditionalUpdate({}, {}, store)).to.equal(item);
    expect(await conditionalUpdate(undefined, {}, store)).to.equal(item);
    expect(store.writes).to.equal(0);
    for (const body of [[], 'text', 3]) {
      expect((await domainErrorOf(conditionalUpdate(body, {}, steps(item, 0, body)))).code, JSON.stringify(body)).to.equal('VALIDATION_FAILED');
    }
  });

  it('answers PRECONDITION_FAILED when a named tag loses the race, and works the update out again without one', async () => {
    expect((await domainErrorOf(conditionalUpdate({ name: 'x' }, { ifMatch: entityTag(item) }, steps(item, 1)))).code).to.equal('PRECONDITION_FAILED');
    const blind = steps(item, 2);
    const updated = await conditionalUpdate({ name: 'x' }, {}, blind);
    expect(updated.name).to.equal('new');
    expect(blind.writes).to.equal(3);
    expect((await conditionalUpdate({ name: 'x' }, { ifMatch: '*' }, steps(item, 1))).name).to.equal('new');
  });

  it('lets ten writers of one record without If-Match take turns: all land, in one round each', async () => {
    // A record whose build awaits (as reference checks do) and whose write is conditional on the
    // updatedAt read: started together, rounds invalidated each other and some answered 500.
    let stored: Item & { readonly names: readonly string[] } = { ...item, names: [] };
    let writes = 0;
    const update = (name: string) =>
      conditionalUpdate({ name }, {}, {
        key: 'item\0racing',
        read: async () => stored,
        notFound: () => new Error('not found') as never,
        view: (current) => current,
        build: async (current) => {
          await new Promise((resolve) => setImmediate(resolve));
          return { ...current, name, names: [...current.names, name], updatedAt: new Date(current.updatedAt.getTime() + 1) };
        },
        write: async (next, expected) => {
          writes += 1;
          await Promise.resolve();
          if (stored.updatedAt.getTime() !== expected.getTime()) return false;
          stored = next;
          return true;
        },
      });
    const names = Array.from({ length: 10 }, (_, i) => `writer-${i}`);
    const results = await Promise.allSettled(names.map(update));
    expect(results.map((result) => result.status)).to.deep.equal(names.map(() => 'fulfilled'));
    expect(stored.names).to.have.members(names);
    expect(stored.updatedAt.getTime()).to.equal(item.updatedAt.getTime() + 10);
    expect(writes, 'one round each: they took turns instead of invalidating each other').to.equal(10);
  });

  it('absorbs a long run of rounds lost to writers of other processes, and gives up only after 32', async function () {
    this.timeout(20_000);
    const contended = steps(item, 20);
    expect((await conditionalUpdate({ name: 'x' }, {}, contended)).name).to.equal('new');
    expect(contended.writes).to.equal(21);
    const hopeless = steps(item, 1_000);
    const error = await conditionalUpdate({ name: 'x' }, {}, hopeless).then(
      () => undefined,
      (caught: Error) => caught,
    );
    expect([error?.message, hopeless.writes]).to.deep.equal(['update kept losing races after 32 attempts', 32]);
  });

  it('checks If-Match before the body shape', async () => {
    const calls: string[] = [];
    const error = await domainErrorOf(conditionalUpdate({ name: 1 }, { ifMatch: '"old"', checkShape: () => calls.push('shape') }, steps(item)));
    expect(error.code).to.equal('PRECONDITION_FAILED');
    expect(calls).to.deep.equal([]);
  });
});
