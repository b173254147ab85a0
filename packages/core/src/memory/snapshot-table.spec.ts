import { expect } from 'chai';
import { isDeeplyFrozen } from '../shared/frozen-snapshots.js';
import { frozenRecordFromJson } from './json-snapshot-table.js';
import { recordText } from '../shared/record-text.js';
import { frozenCopy, SnapshotTable } from './snapshot-table.js';

interface Row {
  readonly id: string;
  readonly at: Date;
  readonly slots: ReadonlyArray<{ readonly settings: { readonly range: string } }>;
  readonly likes: number;
  readonly tags?: readonly string[];
}

const row = (): Row => ({ id: 'a', at: new Date('2026-01-02T03:04:05.678Z'), slots: [{ settings: { range: '2weeks' } }], likes: 0 });

describe('SnapshotTable', () => {
  describe('when a record is inserted or put', () => {
    it('stores a deeply frozen copy and hands that one snapshot to every reader', () => {
      const table = new SnapshotTable<Row>();
      const original = row();
      const stored = table.insert('k', original)!;
      expect(stored).to.deep.equal(original);
      expect(stored).not.to.equal(original);
      expect(isDeeplyFrozen(stored) && Object.isFrozen(stored.slots[0]!.settings)).to.equal(true);
      expect(table.get('k')).to.equal(stored);
      expect([...table.values()]).to.deep.equal([stored]);
    });

    it('keeps what it was given, whatever the caller changes afterwards', () => {
      const table = new SnapshotTable<Row>();
      const original = row() as { -readonly [K in keyof Row]: Row[K] };
      table.put('k', original);
      (original.slots[0]!.settings as { range: string }).range = 'changed';
      original.at.setTime(0);
      expect(table.get('k')!.slots[0]!.settings.range).to.equal('2weeks');
      expect(table.get('k')!.at.toISOString()).to.equal('2026-01-02T03:04:05.678Z');
    });

    it('refuses a taken key on insert, and replaces on put', () => {
      const table = new SnapshotTable<Row>();
      table.insert('k', row());
      expect(table.insert('k', { ...row(), id: 'b' })).to.equal(undefined);
      expect(table.put('k', { ...row(), id: 'b' }).id).to.equal('b');
      expect(table.size).to.equal(1);
    });
  });

  describe('when a record is deleted on a condition', () => {
    it('deletes only while the condition holds on the stored snapshot, and answers that snapshot', () => {
      const table = new SnapshotTable<Row>();
      const stored = table.insert('k', row())!;
      expect(table.deleteIf('k', (current) => current.likes === 1)).to.equal(undefined);
      expect(table.get('k')).to.equal(stored);
      expect(table.deleteIf('k', (current) => current.likes === 0)).to.equal(stored);
      expect(table.has('k')).to.equal(false);
      expect(table.deleteIf('k', () => true)).to.equal(undefined);
    });
  });

  describe('when a record is updated', () => {
    it('stores a frozen successor that shares the unchanged parts and copies the new ones', () => {
      const table = new SnapshotTable<Row>();
      const before = table.insert('k', row())!;
      const tags = ['x'];
      const when = new Date('2026-03-04T00:00:00.000Z');
      const after = table.update('k', (current) => ({ ...current, likes: current.likes + 1, tags, at: when }))!;
      expect(after).to.include({ likes: 1 });
      expect(after.slots, 'unchanged part shared').to.equal(before.slots);
      expect(after.tags).to.deep.equal(['x']);
      expect(after.tags).not.to.equal(tags);
      expect(after.at).to.deep.equal(when);
      expect(after.at).not.to.equal(when);
      expect(isDeeplyFrozen(after) && Object.isFrozen(after.at)).to.equal(true);
      tags.push('y');
      when.setTime(0);
      expect(table.get('k')).to.equal(after);
      expect(after.tags).to.deep.equal(['x']);
      expect(after.at.toISOString()).to.equal('2026-03-04T00:00:00.000Z');
      expect(before.likes, 'an earlier snapshot never changes').to.equal(0);
    });

    it('copies a new member that is frozen on top but changeable inside', () => {
      const table = new SnapshotTable<Row>();
      table.insert('k', row());
      const inner = { range: 'open' };
      const slots = Object.freeze([Object.freeze({ settings: inner })]);
      const after = table.update('k', (current) => ({ ...current, slots }))!;
      expect(after.slots).not.to.equal(slots);
      inner.range = 'changed';
      expect(after.slots[0]!.settings.range).to.equal('open');
    });

    it('makes the fresh object the change built the snapshot, without copying it again', () => {
      const table = new SnapshotTable<Row>();
      table.insert('k', row());
      let built: Row | undefined;
      const after = table.update('k', (current) => (built = { ...current, likes: 2 }));
      expect(after).to.equal(built);
      expect(Object.isFrozen(built)).to.equal(true);
    });

    it('answers undefined and stores nothing when there is no record', () => {
      const table = new SnapshotTable<Row>();
      expect(table.update('k', (current) => current)).to.equal(undefined);
      expect(table.size).to.equal(0);
    });
  });

  describe('when a record is updated with a successor built frozen (updateFrozen)', () => {
    it('stores that very successor as a snapshot, and refuses one not frozen, keeping the current record', () => {
      const table = new SnapshotTable<Row>();
      const stored = table.put('k', row());
      const built = Object.freeze({ ...stored, likes: 1 });
      expect(table.updateFrozen('k', () => built)).to.equal(built);
      expect(table.get('k')).to.equal(built);
      expect(isDeeplyFrozen(built)).to.equal(true);
      expect(() => table.updateFrozen('k', (current) => ({ ...current, likes: 2 }))).to.throw(TypeError);
      expect(table.get('k')).to.equal(built);
      expect(table.updateFrozen('absent', (current) => current)).to.equal(undefined);
    });
  });
});

describe('frozenCopy', () => {
  it('keeps an own __proto__ key an own key and pollutes no prototype', () => {
    const original = JSON.parse('{"title":{"__proto__":{"polluted":true},"en":"Hi"}}') as { title: Record<string, unknown> };
    const copy = frozenCopy(original);
    expect(Object.keys(copy.title)).to.deep.equal(['__proto__', 'en']);
    expect(Object.getPrototypeOf(copy.title)).to.equal(Object.prototype);
    expect((copy.title as { polluted?: unknown }).polluted).to.equal(undefined);
    expect(({} as { polluted?: unknown }).polluted).to.equal(undefined);
  });

  it('refuses what is not plain data, which could not be frozen', () => {
    expect(() => frozenCopy({ seen: new Map([['a', 1]]) })).to.throw(TypeError, /plain data only, not Map/);
  });
});

describe('frozenRecordFromJson', () => {
  it('reads back a deeply frozen record equal to the one written, its dates Dates again', () => {
    const record = { id: 'a', title: { en: 'Hi' }, items: [{ n: 1 }, null], createdAt: new Date('2026-01-02T03:04:05.678Z') };
    const read = frozenRecordFromJson<typeof record>(recordText(record), ['createdAt']);
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
