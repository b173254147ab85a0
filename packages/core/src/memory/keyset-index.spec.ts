import { expect } from 'chai';
import { compareNewestFirst, type KeysetPosition } from '../shared/page-cursor.js';
import { KEYSET_BLOCK, KeysetIndex } from './keyset-index.js';

const id = (n: number) => n.toString(16).padStart(24, '0');
const at = (ms: number, n: number) => ({ createdAt: new Date(ms), id: id(n) });

describe('KeysetIndex', () => {
  describe('when records arrive out of order and share timestamps', () => {
    const index = new KeysetIndex();
    const positions = [at(20, 1), at(10, 2), at(20, 3), at(30, 4), at(10, 5)];
    for (const position of positions) index.add('g', position, position.id);

    it('lists newest first, ties by id descending, from any position', () => {
      expect([...index.newestFirst('g', null)]).to.deep.equal([id(4), id(3), id(1), id(5), id(2)]);
      expect([...index.newestFirst('g', at(20, 3))]).to.deep.equal([id(1), id(5), id(2)]);
    });

    it('lists oldest first from any position', () => {
      expect([...index.oldestFirst('g', null)]).to.deep.equal([id(2), id(5), id(1), id(3), id(4)]);
      expect([...index.oldestFirst('g', at(20, 1))]).to.deep.equal([id(3), id(4)]);
    });

    it('continues after a position whose record is gone, and keeps groups apart', () => {
      expect([...index.newestFirst('g', at(25, 9))]).to.deep.equal([id(3), id(1), id(5), id(2)]);
      expect([...index.newestFirst('other', null)]).to.deep.equal([]);
    });
  });

  describe('when a page spans several groups', () => {
    const index = new KeysetIndex();
    // Ties across the groups, and a group left empty.
    const a = [at(10, 2), at(20, 1), at(30, 4)];
    const b = [at(10, 5), at(20, 3), at(40, 6)];
    for (const position of a) index.add('a', position, position.id);
    for (const position of b) index.add('b', position, position.id);
    const page = (order: 'newestFirst' | 'oldestFirst', after: ReturnType<typeof at> | null) => [
      ...index.itemsForAny(['a', 'empty', 'b'], { after, limit: 10, order }),
    ];

    it('merges them newest first, ties by id descending, from any position', () => {
      expect(page('newestFirst', null)).to.deep.equal([id(6), id(4), id(3), id(1), id(5), id(2)]);
      expect(page('newestFirst', at(20, 3))).to.deep.equal([id(1), id(5), id(2)]);
      expect(page('newestFirst', at(25, 9))).to.deep.equal([id(3), id(1), id(5), id(2)]);
    });

    it('merges them oldest first from any position', () => {
      expect(page('oldestFirst', null)).to.deep.equal([id(2), id(5), id(1), id(3), id(4), id(6)]);
      expect(page('oldestFirst', at(20, 1))).to.deep.equal([id(3), id(4), id(6)]);
    });

    it('reads one group as itemsFor does, and no group as nothing', () => {
      expect([...index.itemsForAny(['b'], { after: null, limit: 10 })]).to.deep.equal([...index.itemsFor('b', { after: null, limit: 10 })]);
      expect([...index.itemsForAny([], { after: null, limit: 10 })]).to.deep.equal([]);
    });
  });

  it('forgets removed records', () => {
    const index = new KeysetIndex();
    index.add('g', at(1, 1), 'a');
    index.add('g', at(2, 2), 'b');
    index.remove('g', at(1, 1));
    index.remove('g', at(9, 9));
    expect([...index.newestFirst('g', null)]).to.deep.equal(['b']);
  });

  it('counts a group, and takes it whole, oldest first, leaving the others', () => {
    const index = new KeysetIndex();
    index.add('g', at(2, 2), 'b');
    index.add('g', at(1, 1), 'a');
    index.add('h', at(3, 3), 'c');
    expect([index.count('g'), index.count('h'), index.count('none')]).to.deep.equal([2, 1, 0]);
    expect(index.take('g')).to.deep.equal(['a', 'b']);
    expect([index.count('g'), [...index.newestFirst('g', null)], index.take('g')]).to.deep.equal([0, [], []]);
    expect([...index.newestFirst('h', null)]).to.deep.equal(['c']);
  });

  it('keeps its order across blocks through inserts anywhere and removes, from any position, either way', () => {
    const index = new KeysetIndex();
    const held = new Map<string, KeysetPosition>();
    // A fixed pseudo-random walk: appends, inserts among older entries (splitting full blocks),
    // ties on the millisecond, and removes that empty whole blocks.
    let seed = 7;
    const next = (below: number) => (seed = (seed * 48271) % 2147483647) % below;
    for (let n = 0; n < 4 * KEYSET_BLOCK; n += 1) {
      const position = at(next(3) === 0 ? next(n + 1) : n * 2, n);
      index.add('g', position, position.id);
      held.set(position.id, position);
    }
    // A run of more than two blocks' entries in list order, so whole blocks empty, and a quarter of the rest.
    const removed = [...held.values()].sort(compareNewestFirst).filter((_, i) => (i > KEYSET_BLOCK && i < 2.5 * KEYSET_BLOCK) || next(4) === 0);
    for (const position of removed) {
      index.remove('g', position);
      held.delete(position.id);
    }
    const expected = [...held.values()].sort(compareNewestFirst).map((position) => position.id);
    expect(index.count('g')).to.equal(expected.length);
    expect([...index.newestFirst('g', null)]).to.deep.equal(expected);
    expect([...index.oldestFirst('g', null)]).to.deep.equal([...expected].reverse());
    // From every 37th entry still held and from removed ones: what follows it in either order.
    const positions = [...held.values()].filter((_, i) => i % 37 === 0).concat(removed.slice(0, 40));
    for (const after of positions) {
      const older = expected.filter((id) => compareNewestFirst(held.get(id)!, after) > 0);
      const newer = expected.filter((id) => compareNewestFirst(held.get(id)!, after) < 0).reverse();
      expect([...index.newestFirst('g', after)], `newest first after ${after.id}`).to.deep.equal(older);
      expect([...index.oldestFirst('g', after)], `oldest first after ${after.id}`).to.deep.equal(newer);
    }
    expect(index.take('g')).to.deep.equal([...expected].reverse());
  });
});
