import { expect } from 'chai';
import { sameData, sharingUnchanged } from './unchanged-parts.js';

describe('sharingUnchanged: an update keeps the stored parts it did not change', () => {
  const stored = Object.freeze({
    title: Object.freeze({ en: 'Hi' }),
    sections: Object.freeze([Object.freeze({ fields: Object.freeze([Object.freeze({ name: 'a', options: Object.freeze([]) })]) })]),
    flow: Object.freeze({ nextFormId: null }),
    isActive: true,
  });

  it('takes the stored object for each part equal to it, and keeps the new ones', () => {
    const changes = { title: { en: 'Hello' }, sections: [{ fields: [{ name: 'a', options: [] }] }], flow: { nextFormId: null }, isActive: false };
    const shared = sharingUnchanged(changes, stored);
    expect(shared.sections).to.equal(stored.sections);
    expect(shared.flow).to.equal(stored.flow);
    expect(shared.title).to.equal(changes.title);
    expect(shared.isActive).to.equal(false);
    expect(shared).to.deep.equal(changes);
    expect(changes.sections).not.to.equal(stored.sections); // the caller's object is left as it was
  });

  const different: Array<[string, unknown, unknown]> = [
    ['another value', { a: 1 }, { a: 2 }],
    ['the same members in another order (JSON writes them in order)', { a: 1, b: 2 }, { b: 2, a: 1 }],
    ['a member left out on one side only', { a: 1, b: undefined }, { a: 1 }],
    ['an array against an object', [1], { 0: 1 }],
    ['arrays of other lengths', [1, 2], [1]],
    ['two Dates of the same time', new Date(1), new Date(1)],
    ['a Date against an empty object', new Date(1), {}],
    ['a class instance against plain data', new Map(), {}],
    ['NaN against NaN', Number.NaN, Number.NaN],
  ];
  for (const [name, a, b] of different) {
    it(`sees ${name} as different`, () => {
      expect(sameData(a, b)).to.equal(false);
    });
  }

  it('sees equal nested data as the same, and -0 as the 0 JSON writes', () => {
    expect(sameData({ a: [1, { b: null, c: 'x' }], d: -0 }, { a: [1, { b: null, c: 'x' }], d: 0 })).to.equal(true);
  });

  it('never shares through an own __proto__ key', () => {
    const changes = JSON.parse('{"__proto__":{"x":1},"title":{"en":"Hi"}}') as Record<string, unknown>;
    const shared = sharingUnchanged(changes, JSON.parse('{"__proto__":{"x":1}}') as object) as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(shared, '__proto__')?.value).to.deep.equal({ x: 1 });
    expect(({} as { x?: unknown }).x).to.equal(undefined);
  });
});
