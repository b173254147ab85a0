import { expect } from 'chai';
import { Ajv } from 'ajv';
import { randomText, seededRandom } from '@cms/core/testing';
import type { JsonSchema } from './route-definition.js';
import { SchemaValidator } from './schema-validator.js';

/** AJV on the schema as written: the verdict and first message the validator must keep. */
function ajvVerdict(schema: JsonSchema): (value: unknown) => string {
  const validate = new Ajv({ allErrors: false, strict: false }).compile(schema);
  return (value) => (validate(value) ? 'valid' : `${validate.errors![0]!.keyword}: ${validate.errors![0]!.message}`);
}

function ourVerdict(schema: JsonSchema): (value: unknown) => string {
  const check = new SchemaValidator().compile(schema, 'body');
  return (value) => {
    try {
      check(value);
      return 'valid';
    } catch (error) {
      return (error as Error).message;
    }
  };
}

describe('SchemaValidator: minLength and maxLength', () => {
  // Letters, a character outside the BMP (its two halves also drawn alone), an accented letter.
  const ALPHABET = 'ab😀é';

  it('agrees with AJV on 20,000 generated strings and bounds, surrogate pairs and lone halves included', () => {
    const random = seededRandom(3);
    const verdicts = new Map<string, { expected: (value: unknown) => string; actual: (value: unknown) => string }>();
    for (let i = 0; i < 20_000; i += 1) {
      const min = Math.floor(random() * 6);
      const max = min + Math.floor(random() * 6);
      const schema: JsonSchema = { type: 'object', properties: { text: { type: 'string', minLength: min, maxLength: max } } };
      let pair = verdicts.get(`${min}-${max}`);
      if (!pair) verdicts.set(`${min}-${max}`, (pair = { expected: ajvVerdict(schema), actual: ourVerdict(schema) }));
      const text = randomText(random, ALPHABET, 16);
      const expected = pair.expected({ text });
      const actual = pair.actual({ text });
      const label = JSON.stringify({ text, min, max });
      if (expected === 'valid') expect(actual, label).to.equal('valid');
      else expect(actual, label).to.equal(`body.text ${expected.replace(/^\w+: /, '')}`);
    }
  });

  it('counts characters, not UTF-16 units: 20,000 emoji fit a 20,000-character limit, one more does not', () => {
    const verdict = ourVerdict({ type: 'string', minLength: 1, maxLength: 20_000 });
    expect(verdict('😀'.repeat(20_000))).to.equal('valid');
    expect(verdict('😀'.repeat(20_001))).to.equal('body must NOT have more than 20000 characters');
    expect(verdict('')).to.equal('body must NOT have fewer than 1 characters');
    expect(ourVerdict({ type: 'string', minLength: 3 })('😀😀')).to.equal('body must NOT have fewer than 3 characters');
  });

  it('keeps AJV’s order where a pattern or format sits beside the lengths: the length is reported first', () => {
    const schema: JsonSchema = { type: 'string', pattern: '^[a-z]+$', maxLength: 3 };
    expect(ourVerdict(schema)('ABCDE')).to.equal(`body ${ajvVerdict(schema)('ABCDE').replace(/^\w+: /, '')}`);
    expect(ourVerdict(schema)('ABCDE')).to.contain('more than 3 characters');
  });

  it('checks a pattern beside both lengths after them, in AJV’s order, with the pattern’s words (a blank text)', () => {
    const schema: JsonSchema = { type: 'string', minLength: 1, maxLength: 2, pattern: String.raw`\S` };
    const keywords = ajvVerdict(schema);
    expect(['', '   ', '  ', 'a '].map((text) => keywords(text).split(':')[0])).to.deep.equal(['minLength', 'maxLength', 'pattern', 'valid']);
    expect(['', '   ', '  ', 'a '].map(ourVerdict(schema))).to.deep.equal([
      'body must NOT have fewer than 1 characters',
      'body must NOT have more than 2 characters',
      'body must not be blank',
      'valid',
    ]);
  });

  it('checks lengths inside anyOf, items, additionalProperties and nested properties', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        maybe: { anyOf: [{ type: 'string', maxLength: 2 }, { type: 'null' }] },
        list: { type: 'array', items: { type: 'string', maxLength: 2 } },
        map: { type: 'object', additionalProperties: { type: 'string', minLength: 2 } },
        deep: { type: 'object', properties: { example: { type: 'string', maxLength: 1 } } },
      },
    };
    const verdict = ourVerdict(schema);
    expect(verdict({ maybe: null, list: ['ab'], map: { x: 'ab' }, deep: { example: 'a' } })).to.equal('valid');
    expect(verdict({ maybe: 'abc' })).to.match(/^body\.maybe /);
    expect(verdict({ list: ['ab', 'abc'] })).to.equal('body.list[1] must NOT have more than 2 characters');
    expect(verdict({ map: { x: 'a' } })).to.equal('body.map.x must NOT have fewer than 2 characters');
    expect(verdict({ deep: { example: 'ab' } })).to.equal('body.deep.example must NOT have more than 1 characters');
  });
});

describe('SchemaValidator: oneOf', () => {
  // The shape of a webhook's `events`: items checked one by one, the oneOf telling ["*"] from a list.
  const schema: JsonSchema = {
    type: 'object',
    properties: {
      events: {
        type: 'array',
        minItems: 1,
        items: { type: 'string', enum: ['a.created', 'a.deleted', '*'] },
        oneOf: [
          { title: '["*"] alone', type: 'array', minItems: 1, items: { const: '*' } },
          { title: 'a list of event types', type: 'array', items: { not: { const: '*' } } },
        ],
      },
    },
  };
  const verdict = ourVerdict(schema);

  it('names a value that is none of the forms in the words of their titles', () => {
    expect(verdict({ events: ['*', 'a.created'] })).to.equal('body.events must be ["*"] alone or a list of event types');
    expect(verdict({ events: ['a.created', '*'] })).to.equal('body.events must be ["*"] alone or a list of event types');
  });

  it('reports the problem every form shares, and an item’s own problem, as without the oneOf', () => {
    expect(verdict({ events: 'a.created' })).to.equal('body.events must be an array');
    expect(verdict({ events: [] })).to.equal('body.events must NOT have fewer than 1 items');
    expect(verdict({ events: ['a.created', 'nope'] })).to.equal('body.events[1] must be one of a.created, a.deleted, *');
    expect(verdict({ events: [7] })).to.equal('body.events[0] must be a string');
  });

  it('accepts either form, a repeated entry included', () => {
    for (const events of [['*'], ['*', '*'], ['a.created'], ['a.created', 'a.created', 'a.deleted']]) expect(verdict({ events }), JSON.stringify(events)).to.equal('valid');
  });

  it('falls back to a plain message when a form has no title', () => {
    const untitled = ourVerdict({ oneOf: [{ type: 'string' }, { type: 'integer' }] });
    expect(untitled(true)).to.equal('body must match exactly one of its forms');
  });
});
