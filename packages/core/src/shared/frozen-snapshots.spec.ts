import { expect } from 'chai';
import { frozenCopy } from '../memory/snapshot-table.js';
import { isDeeplyFrozen, viewPerSnapshot } from './frozen-snapshots.js';

describe('isDeeplyFrozen', () => {
  describe('when nothing in the value can change', () => {
    it('is true: primitives, Dates, and frozen plain objects and arrays of those, all the way down', () => {
      const values = [
        'text',
        1,
        null,
        undefined,
        new Date(0),
        frozenCopy({ id: 'r1', title: { en: 'Hi' }, tags: ['a'], at: new Date(0), empty: {} }),
        Object.freeze(Object.assign(Object.create(null), { a: 1 })),
      ];
      expect(values.map(isDeeplyFrozen)).to.deep.equal(values.map(() => true));
    });
  });

  describe('when something in the value can change or is not plain data', () => {
    it('is false: unfrozen parts at any depth, accessors, functions, Maps, class instances, Dates with properties', () => {
      class Point {
        x = 1;
      }
      const dated = new Date(0);
      Object.assign(dated, { note: 'x' });
      const values = [
        { id: 'r1' },
        Object.freeze({ id: 'r1', title: { en: 'Hi' } }),
        Object.freeze({ list: Object.freeze([{ a: 1 }]) }),
        Object.freeze(Object.defineProperty({}, 'now', { get: () => Date.now(), enumerable: true })),
        Object.freeze({ run: () => 1 }),
        Object.freeze(new Map()),
        Object.freeze(new Point()),
        Object.freeze({ at: dated }),
      ];
      expect(values.map(isDeeplyFrozen)).to.deep.equal(values.map(() => false));
    });
  });
});

describe('viewPerSnapshot', () => {
  const record = (title: string) => ({ id: 'r1', tenantId: 't1', title: { en: title }, updatedAt: new Date(0) });
  const calls: string[] = [];
  const toView = viewPerSnapshot(({ tenantId: _tenantId, ...rest }: ReturnType<typeof record>) => {
    calls.push(rest.title.en);
    return { ...rest, extra: { shown: true } };
  });
  beforeEach(() => (calls.length = 0));

  describe('when the record is a deeply frozen snapshot', () => {
    it('works its view out once and hands every reader the same frozen view', () => {
      const snapshot = frozenCopy(record('Hello'));
      const [first, second] = [toView(snapshot), toView(snapshot)];
      expect(second).to.equal(first);
      expect(calls).to.deep.equal(['Hello']);
      expect(first).to.deep.equal({ id: 'r1', title: { en: 'Hello' }, updatedAt: new Date(0), extra: { shown: true } });
      expect(isDeeplyFrozen(first)).to.equal(true);
    });

    it('works a new view out for the next snapshot', () => {
      const [one, two] = [frozenCopy(record('One')), frozenCopy(record('Two'))];
      expect([toView(one).title.en, toView(two).title.en, toView(one).title.en]).to.deep.equal(['One', 'Two', 'One']);
      expect(calls).to.deep.equal(['One', 'Two']);
    });
  });

  describe('fresh, for the answer of a write', () => {
    it('builds a snapshot\'s view without freezing or remembering it, so a later read works out its own', () => {
      const snapshot = frozenCopy(record('Written'));
      const [answered, again] = [toView.fresh(snapshot), toView.fresh(snapshot)];
      expect(answered).to.deep.equal({ id: 'r1', title: { en: 'Written' }, updatedAt: new Date(0), extra: { shown: true } });
      expect(again).to.not.equal(answered);
      expect(Object.isFrozen(answered)).to.equal(false);
      const read = toView(snapshot);
      expect(read).to.not.equal(answered);
      expect(read).to.deep.equal(answered);
      expect(isDeeplyFrozen(read)).to.equal(true);
      expect(calls).to.deep.equal(['Written', 'Written', 'Written']);
    });

    it('hands out the view a read already worked out for the snapshot', () => {
      const snapshot = frozenCopy(record('Read'));
      const read = toView(snapshot);
      expect(toView.fresh(snapshot)).to.equal(read);
      expect(calls).to.deep.equal(['Read']);
    });
  });

  describe('when the record can change (a fresh document, or frozen only on the outside)', () => {
    it('works a fresh, unfrozen view out on every call', () => {
      const fresh = record('Fresh');
      const outside = Object.freeze(record('Outside'));
      const views = [toView(fresh), toView(fresh), toView(outside), toView(outside)];
      expect(calls).to.deep.equal(['Fresh', 'Fresh', 'Outside', 'Outside']);
      expect(views[1]).to.not.equal(views[0]);
      expect(views.some((view) => Object.isFrozen(view))).to.equal(false);
      fresh.title.en = 'Changed';
      expect(toView(fresh).title.en).to.equal('Changed');
    });
  });
});
