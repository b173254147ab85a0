import { expect } from 'chai';
import { frozenCopy } from '../memory/snapshot-table.js';
import { seededRandom } from '../testing/seeded-random.js';
import { recordText } from './record-text.js';

describe('recordText', () => {
  it('writes what JSON.stringify writes, for records with and without dates, odd members and odd records', () => {
    const shiftedIso = Object.assign(new Date(0), { toISOString: () => 'not an ISO text' });
    const records: object[] = [
      { id: 'a', createdAt: new Date('2026-01-02T03:04:05.678Z'), nested: { at: new Date(0) }, updatedAt: new Date('2026-02-03T00:00:00.000Z') },
      { id: 'invalid date', createdAt: new Date(Number.NaN), updatedAt: 'not a date' },
      { id: 'far dates', past: new Date(-62198755200000), future: new Date(8.64e15) },
      { id: 'no dates', skipped: undefined, fn: () => 1, sym: Symbol('s'), list: [undefined, 1, () => 2], n: -0, inf: Infinity, nan: Number.NaN, t: true, nul: null },
      { 'quote"d': 'line\nbreak', 'é': '\u2028 \ud800', [Symbol('hidden')]: 1 },
      JSON.parse('{"__proto__":{"x":1},"createdAt":"2026-01-01T00:00:00.000Z"}') as object,
      { id: 'own toJSON', createdAt: new Date(0), toJSON(this: { createdAt: unknown }) { return { dated: this.createdAt instanceof Date }; } },
      { id: 'member toJSON sees its key', member: { toJSON: (key: string) => `under ${key}` }, createdAt: new Date(0) },
      { id: 'date with its own method', createdAt: shiftedIso },
      Object.assign(Object.create(null) as object, { id: 'null prototype', createdAt: new Date(5) }),
      new (class Row { id = 'class instance'; createdAt = new Date(7); })(),
      [new Date(0), { at: new Date(1) }],
      {},
      frozenCopy({ id: 'frozen', title: { en: 'Hi' }, items: [{ n: 1 }], createdAt: new Date('2026-03-04T05:06:07.089Z'), updatedAt: new Date('2026-03-04T05:06:08.000Z') }),
    ];
    for (const record of records) expect(recordText(record)).to.equal(JSON.stringify(record));
  });

  it('matches JSON.stringify on 2,000 random records of strings, numbers, nested data and dates', () => {
    const random = seededRandom(3);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const leaf = () =>
      pick<() => unknown>([
        () => new Date(Math.floor(random() * 4e12) - 1e12),
        () => `text ${Math.floor(random() * 1e6)} "q" \\ \u0001`,
        () => random() * 1e6 - 5e5,
        () => null,
        () => undefined,
        () => random() < 0.5,
        () => ({ at: new Date(Math.floor(random() * 4e12)), n: 1 }),
        () => [1, 'two', new Date(0)],
      ])();
    for (let i = 0; i < 2000; i += 1) {
      const record: Record<string, unknown> = {};
      const members = Math.floor(random() * 12);
      for (let m = 0; m < members; m += 1) record[pick(['id', 'createdAt', 'updatedAt', 'title', 'a b', '0', '10', 'x'])+ (random() < 0.3 ? m : '')] = leaf();
      expect(recordText(record)).to.equal(JSON.stringify(record));
    }
  });

  it('reads each member once, as JSON.stringify does', () => {
    let reads = 0;
    const record = Object.defineProperty({ createdAt: new Date(0) }, 'count', { get: () => ++reads, enumerable: true });
    expect(recordText(record)).to.equal('{"createdAt":"1970-01-01T00:00:00.000Z","count":1}');
    expect(reads).to.equal(1);
  });

  it('throws where JSON.stringify throws: a cycle, a BigInt', () => {
    const cyclic: Record<string, unknown> = { id: 'c', createdAt: new Date(0) };
    cyclic.self = cyclic;
    expect(() => recordText(cyclic)).to.throw(TypeError);
    expect(() => recordText({ big: 1n })).to.throw(TypeError);
  });
});
