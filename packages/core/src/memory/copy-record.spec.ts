import { expect } from 'chai';
import { isDeeplyFrozen } from '../shared/frozen-snapshots.js';
import { copyRecord, frozenCopy, frozenRecordFromJson, recordJson } from './copy-record.js';

describe('copyRecord', () => {
  describe('when given a record of plain data', () => {
    it('returns an equal copy that shares no object with the original', () => {
      const original = { id: 'a', at: new Date('2026-01-02T03:04:05.678Z'), slots: [{ settings: { range: '2weeks' } }], empty: null, n: 0 };
      const copy = copyRecord(original);
      expect(copy).to.deep.equal(original);
      copy.slots[0]!.settings.range = 'changed';
      copy.at.setTime(0);
      expect(original.slots[0]!.settings.range).to.equal('2weeks');
      expect(original.at.toISOString()).to.equal('2026-01-02T03:04:05.678Z');
    });
  });

  describe('when a key is __proto__', () => {
    it('keeps it as an own key and pollutes no prototype', () => {
      const original = JSON.parse('{"title":{"__proto__":{"polluted":true},"en":"Hi"}}') as { title: Record<string, unknown> };
      const copy = copyRecord(original);
      expect(Object.keys(copy.title)).to.deep.equal(['__proto__', 'en']);
      expect(Object.getPrototypeOf(copy.title)).to.equal(Object.prototype);
      expect((copy.title as { polluted?: unknown }).polluted).to.equal(undefined);
      expect(({} as { polluted?: unknown }).polluted).to.equal(undefined);
    });
  });

  describe('when a value is not plain data', () => {
    it('falls back to structuredClone for it', () => {
      const original = { seen: new Map([['a', 1]]) };
      const copy = copyRecord(original);
      expect(copy.seen).to.be.instanceOf(Map).and.not.equal(original.seen);
      expect([...copy.seen]).to.deep.equal([['a', 1]]);
    });
  });
});

describe('frozenCopy', () => {
  it('returns an equal copy frozen at every level, sharing no object with the original', () => {
    const original = { id: 'a', at: new Date('2026-01-02T03:04:05.678Z'), slots: [{ settings: { range: '2weeks' } }] };
    const frozen = frozenCopy(original);
    expect(frozen).to.deep.equal(original);
    expect(Object.isFrozen(frozen) && Object.isFrozen(frozen.slots) && Object.isFrozen(frozen.slots[0]!.settings)).to.equal(true);
    expect(() => ((frozen.slots[0]!.settings as { range: string }).range = 'changed')).to.throw(TypeError);
    original.slots[0]!.settings.range = 'changed';
    original.at.setTime(0);
    expect(frozen.slots[0]!.settings.range).to.equal('2weeks');
    expect(frozen.at.toISOString()).to.equal('2026-01-02T03:04:05.678Z');
  });
});

describe('recordJson', () => {
  it('writes what JSON.stringify writes, dates under the given keys included', () => {
    const records = [
      { id: 'a', createdAt: new Date('2026-01-02T03:04:05.678Z'), nested: { at: new Date(0) }, updatedAt: new Date('2026-02-03T00:00:00.000Z') },
      { id: 'invalid date', createdAt: new Date(Number.NaN), updatedAt: 'not a date' },
      { id: 'no dates', skipped: undefined, list: [undefined, 1] },
      JSON.parse('{"__proto__":{"x":1},"createdAt":"2026-01-01T00:00:00.000Z"}') as object,
      { id: 'own toJSON', createdAt: new Date(0), toJSON() { return { dated: this.createdAt instanceof Date }; } },
    ];
    for (const record of records) expect(recordJson(record, ['createdAt', 'updatedAt'])).to.equal(JSON.stringify(record));
  });
});

describe('frozenRecordFromJson', () => {
  it('reads back a deeply frozen record equal to the one written, its dates Dates again', () => {
    const record = { id: 'a', title: { en: 'Hi' }, items: [{ n: 1 }, null], createdAt: new Date('2026-01-02T03:04:05.678Z') };
    const read = frozenRecordFromJson<typeof record>(recordJson(record, ['createdAt']), ['createdAt']);
    expect(read).to.deep.equal(record);
    expect(read.createdAt).to.be.instanceOf(Date);
    expect(isDeeplyFrozen(read)).to.equal(true);
  });

  it('keeps an own __proto__ key an own key, polluting no prototype', () => {
    const read = frozenRecordFromJson<{ title: Record<string, unknown> }>('{"title":{"__proto__":{"polluted":true},"en":"Hi"}}', []);
    expect(Object.keys(read.title)).to.deep.equal(['__proto__', 'en']);
    expect(Object.getPrototypeOf(read.title)).to.equal(Object.prototype);
    expect(({} as { polluted?: unknown }).polluted).to.equal(undefined);
  });
});
