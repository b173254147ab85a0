/**
 * The due order of one receiver's pending jobs (decision 0825): a claim gets the due ones in
 * order and looks at no more entries than it takes, keeps and drops as stale, however large the
 * backlog behind them.
 */
import { expect } from 'chai';
import { DueQueue, type DueVerdict } from './due-queue.js';

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

describe('DueQueue', () => {
  it('answers the jobs due by now in due order, then arrival, and leaves them queued', () => {
    const queue = new DueQueue();
    for (const [id, ms] of [['c', 30], ['a', 10], ['later', 500], ['b', 10], ['d', 20]] as const) queue.push(id, at(ms));
    const take = (): DueVerdict => 'take';
    expect(queue.due(at(100), 10, take)).to.deep.equal(['a', 'b', 'd', 'c']);
    expect(queue.due(at(100), 2, take)).to.deep.equal(['a', 'b']);
    expect(queue.due(at(500), 10, take)).to.deep.equal(['a', 'b', 'd', 'c', 'later']);
  });

  it('looks at no entry of a backlog that is not due yet, and at no more due entries than it takes', () => {
    const queue = new DueQueue();
    for (let i = 0; i < 10_000; i += 1) queue.push(`later-${i}`, at(1_000 + i));
    let looked = 0;
    const count = (): DueVerdict => ((looked += 1), 'take');
    expect(queue.due(at(999), 50, count)).to.deep.equal([]);
    expect(looked).to.equal(0);
    expect(queue.due(at(20_000), 5, count)).to.deep.equal(['later-0', 'later-1', 'later-2', 'later-3', 'later-4']);
    expect(looked).to.equal(5);
  });

  it('drops stale entries for good, keeps the leased ones queued, and answers a job pushed twice once', () => {
    const queue = new DueQueue();
    queue.push('gone', at(1));
    queue.push('leased', at(2));
    queue.push('moved', at(3));
    queue.push('moved', at(50)); // its due time changed: the entry at 3 is stale
    queue.push('twice', at(4));
    queue.push('twice', at(4));
    const current = new Map([['leased', 2], ['moved', 50], ['twice', 4]]);
    let looked = 0;
    const verdict = (id: string, time: number): DueVerdict => {
      looked += 1;
      if (current.get(id) !== time - at(0).getTime()) return 'stale';
      return id === 'leased' ? 'keep' : 'take';
    };
    expect(queue.due(at(100), 10, verdict)).to.deep.equal(['twice', 'moved']);
    expect(looked).to.equal(5); // gone, leased, moved at 3, twice, moved at 50; the second 'twice' is dropped unasked
    looked = 0;
    expect(queue.due(at(100), 10, verdict)).to.deep.equal(['twice', 'moved']);
    expect(looked).to.equal(3); // leased, twice, moved: the stale ones went the first time
    expect(queue.isEmpty).to.equal(false);
  });

  it('takes out for good what is due before a cut, live ones once, and looks at nothing due later', () => {
    const queue = new DueQueue();
    for (let i = 0; i < 10_000; i += 1) queue.push(`later-${i}`, at(1_000 + i));
    for (const [id, ms] of [['b', 20], ['a', 10], ['moved', 5], ['twice', 30], ['twice', 30], ['edge', 999]] as const) queue.push(id, at(ms));
    let looked = 0;
    const live = (id: string) => ((looked += 1), id !== 'moved');
    expect(queue.takeBefore(at(999), live)).to.deep.equal(['a', 'b', 'twice']);
    expect(looked).to.equal(4); // moved, a, b, twice: the second 'twice' is dropped unasked, 'edge' is not before the cut
    looked = 0;
    expect(queue.takeBefore(at(999), live)).to.deep.equal([]);
    expect(looked).to.equal(0);
    expect(queue.due(at(999), 10, () => 'take')).to.deep.equal(['edge']);
  });
});
