import { expect } from 'chai';
import { copyRecord, frozenCopy } from './copy-record.js';

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
