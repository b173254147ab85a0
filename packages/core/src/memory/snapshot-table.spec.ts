import { expect } from 'chai';
import { isDeeplyFrozen } from '../shared/frozen-snapshots.js';
import { frozenJsonCopy, frozenRecordFromJson, JsonSnapshotTable } from './json-snapshot-table.js';
import { recordText } from '../shared/record-text.js';
import { takeWrittenText } from '../shared/written-texts.js';
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

  describe('slots', () => {
    it('keep one slot per key from insert to delete, its row always what get answers', () => {
      const table = new SnapshotTable<Row>();
      table.insert('k', row());
      const slot = table.slot('k')!;
      expect(slot.key).to.equal('k');
      expect(slot.row).to.equal(table.get('k'));
      table.update('k', (current) => ({ ...current, likes: 1 }));
      table.updateFrozen('k', (current) => Object.freeze({ ...current, likes: 2 }));
      table.put('k', { ...row(), likes: 3 });
      expect(table.slot('k')).to.equal(slot);
      expect(slot.row).to.equal(table.get('k'));
      expect(slot.row!.likes).to.equal(3);
    });

    it('are answered by insertSlot for a free key, and not for a taken one', () => {
      const table = new SnapshotTable<Row>();
      const slot = table.insertSlot('k', row())!;
      expect(slot).to.equal(table.slot('k'));
      expect(slot.row).to.equal(table.get('k'));
      expect(isDeeplyFrozen(slot.row)).to.equal(true);
      expect(table.insertSlot('k', row())).to.equal(undefined);
      expect(table.slot('k')).to.equal(slot);
    });

    it('read as gone once the record is deleted, also when the key is inserted again', () => {
      const table = new SnapshotTable<Row>();
      table.insert('k', row());
      const first = table.slot('k')!;
      expect(table.delete('k')).to.equal(true);
      expect(first.row).to.equal(undefined);
      expect(table.slot('k')).to.equal(undefined);
      table.insert('k', row());
      expect(table.slot('k')).to.not.equal(first);
      expect(first.row).to.equal(undefined);
      const second = table.slot('k')!;
      expect(table.deleteIf('k', (current) => current.likes === 1)).to.equal(undefined);
      expect(second.row).to.equal(table.get('k'));
      expect(table.deleteIf('k', () => true)).to.not.equal(undefined);
      expect(second.row).to.equal(undefined);
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

describe('frozenJsonCopy: the snapshot a read would parse, without the text', () => {
  const DATES = ['createdAt', 'updatedAt'];
  const parsed = (record: object) => frozenRecordFromJson<object>(recordText(record), DATES);

  const plain: Array<[string, object]> = [
    ['a form-like record', { id: 'f', title: { en: 'Hi', fr: 'Salut' }, sections: [{ fields: [{ name: 'a', required: true, options: [] }] }], flow: { nextFormId: null }, createdAt: new Date(1), updatedAt: new Date(2) }],
    ['members JSON leaves out', { id: 'a', gone: undefined, fn: () => 1, [Symbol('s')]: 1, nested: { gone: undefined, kept: 0 } }],
    ['negative zero and big numbers', { zero: -0, big: 1e300, small: -5e-324 }],
    ['an own __proto__ key', JSON.parse('{"title":{"__proto__":{"polluted":true},"en":"Hi"}}') as object],
    ['a null-prototype member', { id: 'n', meta: Object.assign(Object.create(null) as object, { a: 1 }) }],
    ['a null date member', { id: 'd', createdAt: null, updatedAt: new Date(0) }],
  ];
  for (const [name, record] of plain) {
    it(`copies ${name} exactly as the text reads back, deeply frozen`, () => {
      const copy = frozenJsonCopy<object>(record, DATES);
      expect(copy).to.deep.equal(parsed(record));
      expect(Object.keys(copy!)).to.deep.equal(Object.keys(parsed(record)));
      expect(isDeeplyFrozen(copy)).to.equal(true);
      expect(({} as { polluted?: unknown }).polluted).to.equal(undefined);
    });
  }

  it('copies -0 as the 0 that JSON writes', () => {
    expect(Object.is((frozenJsonCopy<{ zero: number }>({ zero: -0 }, DATES))!.zero, 0)).to.equal(true);
  });

  const changedByJson: Array<[string, object]> = [
    ['a Date away from the date keys', { id: 'a', nested: { at: new Date(0) } }],
    ['a string under a date key (read back as a Date)', { id: 'a', createdAt: '2026-01-01T00:00:00.000Z' }],
    ['an invalid Date (written as null)', { id: 'a', createdAt: new Date(Number.NaN) }],
    ['a Date with its own toJSON', { id: 'a', createdAt: Object.assign(new Date(0), { toJSON: () => 'x' }) }],
    ['NaN (written as null)', { id: 'a', n: Number.NaN }],
    ['an undefined array item (written as null)', { id: 'a', list: [1, undefined] }],
    ['an array hole', { id: 'a', list: [1, , 3] }],
    ['a toJSON method', { id: 'a', member: { toJSON: () => 'x' } }],
    ['an array with a toJSON of its own', { id: 'a', list: Object.assign([1], { toJSON: () => 'x' }) }],
    ['a class instance', { id: 'a', member: new Map() }],
  ];
  for (const [name, record] of changedByJson) {
    it(`gives up on ${name}`, () => {
      expect(frozenJsonCopy(record, DATES)).to.equal(undefined);
    });
  }

  it('leaves the caller’s record as it was: not frozen, not shared', () => {
    const record = { id: 'a', title: { en: 'Hi' }, list: [{ n: 1 }], createdAt: new Date(5) };
    const copy = frozenJsonCopy<typeof record>(record, DATES)!;
    expect(Object.isFrozen(record) || Object.isFrozen(record.title) || Object.isFrozen(record.list[0])).to.equal(false);
    expect(copy.title).not.to.equal(record.title);
    expect(copy.createdAt).not.to.equal(record.createdAt);
  });
});

describe('JsonSnapshotTable.put', () => {
  it('keeps the written record as the snapshot the next read hands out, equal to its text read back', () => {
    const table = new JsonSnapshotTable<{ id: string; title: { en: string }; gone?: undefined; updatedAt: Date }>(['updatedAt'], 4);
    table.insert('k', { id: 'k', title: { en: 'One' }, updatedAt: new Date(1) });
    const record = { id: 'k', title: { en: 'Two' }, gone: undefined, updatedAt: new Date(2) };
    table.put('k', record);
    record.title.en = 'changed by the caller afterwards';
    const read = table.get('k')!;
    expect(read).to.deep.equal({ id: 'k', title: { en: 'Two' }, updatedAt: new Date(2) });
    expect(table.get('k')).to.equal(read);
    expect(isDeeplyFrozen(read)).to.equal(true);
  });

  it('parses on the next read a record it could not copy', () => {
    const table = new JsonSnapshotTable<{ id: string; at: unknown }>([], 4);
    table.put('k', { id: 'k', at: new Date(0) });
    expect(table.get('k')).to.deep.equal({ id: 'k', at: '1970-01-01T00:00:00.000Z' });
  });

  it('holds no more recent snapshots than its limit, counting the written ones', () => {
    const table = new JsonSnapshotTable<{ id: string }>([], 2);
    for (const key of ['a', 'b', 'c']) table.put(key, { id: key });
    const recent = (table as unknown as { recent: Map<string, unknown> }).recent;
    expect([...recent.keys()]).to.deep.equal(['b', 'c']);
  });

  describe('when an update shares parts with the current snapshot', () => {
    type Stored = Record<string, unknown> & { sections: unknown; updatedAt: Date };
    const DATES = ['createdAt', 'updatedAt'];
    // The last column: whether the written record is its own snapshot (shares the part), or one
    // JSON would change and the next read parses instead (frozenJsonCopy gives up on it).
    const members: Array<[string, unknown, 'kept' | 'parsed']> = [
      ['a plain string', 'Feedback', 'kept'],
      ['strings JSON escapes', ['a"b', 'back\\slash', 'line\nbreak', 'tab\t', '\u0001', '\u2028', '😀', '\ud800'], 'kept'],
      ['numbers', [0, -0, 1.5, 1e21, 5e-324], 'kept'],
      ['numbers JSON writes as null', { nan: Number.NaN, infinite: Number.POSITIVE_INFINITY }, 'parsed'],
      ['booleans and null', [true, false, null], 'kept'],
      ['a member JSON leaves out', undefined, 'kept'],
      ['a nested Date', { at: new Date(7) }, 'parsed'],
      ['an invalid Date', new Date(Number.NaN), 'parsed'],
    ];
    for (const [name, value, readBack] of members) {
      it(`writes the text JSON writes, with ${name} beside the shared part`, () => {
        const table = new JsonSnapshotTable<Stored>(DATES, 4);
        table.insert('k', { id: 'k', sections: [{ fields: [{ name: 'a', label: { en: 'A "quoted" label' } }] }], createdAt: new Date(1), updatedAt: new Date(2) });
        const current = table.get('k')!;
        const next: Stored = { ...current, title: { en: 'Two' }, value, updatedAt: new Date(3) };
        table.put('k', next);
        const text = recordText(next);
        expect(takeWrittenText(next)).to.equal(text);
        expect((table as unknown as { texts: Map<string, string> }).texts.get('k')).to.equal(text);
        const read = table.get('k')!;
        expect(read).to.deep.equal(frozenRecordFromJson(text, DATES));
        if (readBack === 'kept') expect(read.sections).to.equal(current.sections);
        else expect(read.sections).not.to.equal(current.sections);
      });
    }

    it('keeps sharing the part over later updates, and writes it again when it changes', () => {
      const table = new JsonSnapshotTable<Stored>(DATES, 4);
      table.insert('k', { id: 'k', sections: [{ n: 1 }], updatedAt: new Date(1) });
      const first = table.get('k')!;
      table.put('k', { ...first, updatedAt: new Date(2) });
      const second = table.get('k')!;
      expect(second.sections).to.equal(first.sections);
      const changed = { ...second, sections: [{ n: 2 }], updatedAt: new Date(3) };
      table.put('k', changed);
      expect(takeWrittenText(changed)).to.equal(recordText(changed));
      expect(table.get('k')!.sections).to.deep.equal([{ n: 2 }]).and.not.equal(second.sections);
    });

    it('copies an equal part that is not the current snapshot’s own', () => {
      const table = new JsonSnapshotTable<Stored>(DATES, 4);
      table.insert('k', { id: 'k', sections: [{ n: 1 }], updatedAt: new Date(1) });
      const current = table.get('k')!;
      const sections = [{ n: 1 }];
      const next = { ...current, sections, updatedAt: new Date(2) };
      table.put('k', next);
      expect(takeWrittenText(next)).to.equal(recordText(next));
      const read = table.get('k')!;
      expect(read.sections).not.to.equal(sections).and.not.to.equal(current.sections);
      expect(isDeeplyFrozen(read)).to.equal(true);
    });
  });
});
