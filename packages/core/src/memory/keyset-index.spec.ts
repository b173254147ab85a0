import { expect } from 'chai';
import { KeysetIndex } from './keyset-index.js';

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
});
