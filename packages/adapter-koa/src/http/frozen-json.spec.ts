import { expect } from 'chai';
import fc from 'fast-check';
import sinon from 'sinon';
import { successEnvelope, successEnvelopeWriter } from './envelope.js';
import { memberJson } from './frozen-json.js';

/** Freezes a value and everything in it (Dates included), as the embedded store does. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/**
 * Values as the HTTP layer may meet them: JSON data, Dates, undefined and functions (skipped or
 * null), objects whose `toJSON` depends on the key, Maps, shared parts; some parts deeply frozen.
 */
const leaf = fc.oneof(
  fc.string(),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant(() => 'a function'),
  fc.date(),
  fc.constant({ toJSON: (key: string) => `toJSON of ${key}` }),
  fc.constant(new Map([['a', 1]])),
);
const { tree } = fc.letrec<{ tree: unknown; node: unknown }>((tie) => ({
  tree: fc.oneof({ depthSize: 'small' }, leaf, tie('node')),
  node: fc
    .tuple(
      fc.oneof(fc.array(tie('tree'), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 6 }), tie('tree'), { maxKeys: 4 })),
      fc.constantFrom('deep', 'shallow', 'none'),
    )
    .map(([container, freeze]) => (freeze === 'deep' ? deepFreeze(container) : freeze === 'shallow' ? Object.freeze(container) : container)),
}));

/** Anywhere inside: an object whose `toJSON` is given its key. */
function hasKeyDependentPart(value: unknown, seen = new Set<unknown>()): boolean {
  if (value === null || typeof value !== 'object' || value instanceof Date || seen.has(value)) return false;
  seen.add(value);
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return true;
  return Object.values(value).some((item) => hasKeyDependentPart(item, seen));
}

/** `{"data":…}` written with memberJson, as the envelope writer does. */
function asMember(value: unknown): string | undefined {
  const text = memberJson(value);
  return text === undefined ? undefined : `{"data":${text}}`;
}

describe('memberJson', () => {
  describe('whatever the value, frozen or not, and however often it is written', () => {
    it('writes exactly what JSON.stringify writes for it as a member, or leaves the member to the caller', () => {
      fc.assert(
        fc.property(tree, (value) => {
          const shared = [value, { again: value, list: [value] }];
          for (let i = 0; i < 3; i++) {
            for (const data of [value, shared]) {
              const whole = JSON.stringify({ data });
              const text = asMember(data);
              if (text === undefined) expect(whole === '{}' || hasKeyDependentPart(data), `left ${whole} to the caller`).to.equal(true);
              else expect(text).to.equal(whole);
            }
          }
        }),
        { numRuns: 500 },
      );
    });
  });

  describe('when a deeply frozen record is written again and again', () => {
    it('serialises it on its first two writings only, and reuses the text after that', () => {
      const record = deepFreeze({ id: 'r1', title: { en: 'Hello' }, createdAt: new Date(0), tags: ['a', 'b'] });
      const expected = JSON.stringify({ record });
      const stringify = sinon.spy(JSON, 'stringify');
      try {
        const texts = [1, 2, 3, 4, 5].map(() => memberJson({ record }));
        // `recordText` hands JSON.stringify a copy with its date written: the copy holds the same title.
        const writings = stringify.getCalls().filter((call) => call.args[0] === record || (call.args[0] as { title?: unknown } | undefined)?.title === record.title);
        expect(writings).to.have.length(2);
        expect(texts).to.deep.equal(Array(5).fill(expected));
      } finally {
        stringify.restore();
      }
    });
  });

  describe('when a frozen value holds something that can still change', () => {
    it('writes the change: an unfrozen part inside a frozen one', () => {
      const inner = { count: 1 };
      const record = Object.freeze({ id: 'r1', inner });
      expect([memberJson(record), memberJson(record), memberJson(record)]).to.deep.equal(Array(3).fill('{"id":"r1","inner":{"count":1}}'));
      inner.count = 2;
      expect(memberJson(record)).to.equal('{"id":"r1","inner":{"count":2}}');
    });

    it('writes the change: a getter', () => {
      let count = 0;
      const record = Object.freeze(Object.defineProperty({}, 'count', { get: () => ++count, enumerable: true }));
      expect([1, 2, 3].map(() => memberJson(record))).to.deep.equal(['{"count":1}', '{"count":2}', '{"count":3}']);
    });
  });

  describe('when the value is circular', () => {
    it('throws as JSON.stringify does', () => {
      const loop: Record<string, unknown> = { id: 'r1' };
      loop.self = loop;
      Object.freeze(loop);
      for (let i = 0; i < 3; i++) expect(() => memberJson({ loop })).to.throw(TypeError);
    });
  });
});

describe('successEnvelopeWriter', () => {
  it('writes exactly what JSON.stringify writes of the envelope', () => {
    fc.assert(
      fc.property(fc.integer({ min: 200, max: 299 }), fc.string(), tree, (status, message, data) => {
        const write = successEnvelopeWriter(status, message);
        for (let i = 0; i < 2; i++) expect(write(data)).to.equal(JSON.stringify(successEnvelope(status, message, data)));
      }),
      { numRuns: 300 },
    );
  });
});

describe('memberJson with a known text', () => {
  it('writes the text this answer already has for that very value, and JSON.stringify for anything else', () => {
    const record = { id: 'r1', title: 'Hello' };
    const known = { value: record, text: JSON.stringify(record) };
    const stringify = sinon.spy(JSON, 'stringify');
    try {
      const text = memberJson({ record, other: { id: 'r2' } }, known);
      expect(stringify.getCalls().filter((call) => call.args[0] === record)).to.have.length(0);
      expect(text).to.equal(JSON.stringify({ record, other: { id: 'r2' } }));
    } finally {
      stringify.restore();
    }
    // The known text is used for that value only (a stale one shows it is not recomputed).
    expect(memberJson({ record }, { value: record, text: '"stale"' })).to.equal('{"record":"stale"}');
    expect(memberJson({ record: { ...record } }, { value: record, text: '"stale"' })).to.equal('{"record":{"id":"r1","title":"Hello"}}');
  });

  it('leaves a value with its own toJSON to the caller, whose text depends on its key', () => {
    const record = { toJSON: (key: string) => key };
    expect(memberJson({ record }, { value: record, text: '""' })).to.equal(undefined);
  });
});
