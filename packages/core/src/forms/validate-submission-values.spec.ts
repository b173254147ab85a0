import { expect } from 'chai';
import fc from 'fast-check';
import { isDomainError } from '../shared/domain-error.js';
import { formRecord } from '../testing/form-fixtures.js';
import type { FormField } from './form.js';
import { validateSubmissionValues } from './validate-submission-values.js';

const field = (name: string, type: FormField['type'], extra: Partial<FormField> = {}): FormField => ({
  name,
  type,
  label: { en: name },
  required: false,
  placeholder: {},
  ...extra,
});

const form = formRecord('acme', 'all-kinds', {
  sections: [
    {
      title: {},
      description: {},
      fields: [
        field('name', 'text', { required: true }),
        field('email', 'email'),
        field('bio', 'textarea'),
        field('age', 'number'),
        field('phone', 'phone'),
        field('site', 'url'),
        field('born', 'date'),
        field('plan', 'select', { options: [{ value: 'free', label: { en: 'Free' } }, { value: 'pro', label: { en: 'Pro' } }] }),
        field('agree', 'checkbox'),
        field('company', 'relation', { relation: { formId: 'a'.repeat(24), multiple: false }, required: true }),
      ],
    },
  ],
});

const problemOf = (body: unknown): string => {
  try {
    validateSubmissionValues(form, body);
  } catch (error) {
    expect(isDomainError(error)).to.equal(true);
    return (error as Error).message;
  }
  return 'accepted';
};

describe('validateSubmissionValues', () => {
  describe('when every value is of its field’s kind', () => {
    it('returns the answered values as given', () => {
      const values = {
        name: ' Ada ',
        email: 'ada@example.org',
        bio: 'x'.repeat(10_000),
        age: -1.5,
        phone: '+44 20 7946 0000',
        site: 'HTTPS://example.org/a?b=c',
        born: '2024-02-29',
        plan: 'pro',
        agree: false,
      };
      expect(validateSubmissionValues(form, { values })).to.deep.equal(values);
    });

    it('counts a text in characters, not UTF-16 units: 10,000 emoji fit, 10,001 do not', () => {
      expect(validateSubmissionValues(form, { values: { name: '😀'.repeat(10_000) } })).to.deep.equal({ name: '😀'.repeat(10_000) });
      expect(problemOf({ values: { name: '😀'.repeat(10_001) } })).to.equal('values.name must be a string of at most 10000 characters');
    });

    it('leaves out optional fields that are absent, null or blank, and a null relation', () => {
      expect(validateSubmissionValues(form, { values: { name: 'Ada', email: '', age: null, site: '   ', company: null } })).to.deep.equal({ name: 'Ada' });
    });
  });

  describe('when the body or a value is wrong', () => {
    const cases: Array<[string, unknown, string]> = [
      ['a non-object body', [], 'must be an object'],
      ['an absent body', undefined, 'must be an object'],
      ['a property beside values', { values: { name: 'A' }, extra: 1 }, 'extra is not allowed'],
      ['no values', {}, 'values is required'],
      ['values that are not an object', { values: ['A'] }, 'values must be an object'],
      ['an unknown field name', { values: { name: 'A', nickname: 'x' } }, 'values.nickname is not a field of this form'],
      ['a value for a relation field', { values: { name: 'A', company: 'a'.repeat(24) } }, 'values.company is a relation field: connect it through the relations route'],
      ['a missing required field', { values: {} }, 'values.name is required'],
      ['a blank required field', { values: { name: '  \t' } }, 'values.name is required'],
      ['a null required field', { values: { name: null } }, 'values.name is required'],
      ['a number as text', { values: { name: 42 } }, 'values.name must be a string of at most 10000 characters'],
      ['an over-long text', { values: { name: 'x'.repeat(10_001) } }, 'values.name must be a string of at most 10000 characters'],
      ['an over-long textarea', { values: { name: 'A', bio: 'x'.repeat(10_001) } }, 'values.bio must be a string of at most 10000 characters'],
      ['a phone as a number', { values: { name: 'A', phone: 123 } }, 'values.phone must be a string of at most 10000 characters'],
      ['an e-mail without @', { values: { name: 'A', email: 'ada.example.org' } }, 'values.email must be an e-mail address'],
      ['an e-mail without a domain dot', { values: { name: 'A', email: 'ada@localhost' } }, 'values.email must be an e-mail address'],
      ['an e-mail list', { values: { name: 'A', email: 'a@v1.test, b@v2.test' } }, 'values.email must be an e-mail address'],
      ['an e-mail with a display name', { values: { name: 'A', email: 'Ada <ada@example.org>' } }, 'values.email must be an e-mail address'],
      ['an e-mail with two dots in a row', { values: { name: 'A', email: 'ada..l@example.org' } }, 'values.email must be an e-mail address'],
      ['an e-mail starting with a dot', { values: { name: 'A', email: '.ada@example.org' } }, 'values.email must be an e-mail address'],
      ['an e-mail longer than 254 characters', { values: { name: 'A', email: `${'a'.repeat(64)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(10)}` } }, 'values.email must be an e-mail address'],
      ['an e-mail with a Unicode domain (punycode is taken)', { values: { name: 'A', email: 'ops@bücher.de' } }, 'values.email must be an e-mail address'],
      ['a number as a string', { values: { name: 'A', age: '42' } }, 'values.age must be a finite number'],
      ['an infinite number', { values: { name: 'A', age: Infinity } }, 'values.age must be a finite number'],
      ['an ftp URL', { values: { name: 'A', site: 'ftp://example.org' } }, 'values.site must be an http(s) URL'],
      ['a URL without a scheme', { values: { name: 'A', site: 'example.org' } }, 'values.site must be an http(s) URL'],
      ['a URL with spaces', { values: { name: 'A', site: 'http://exa mple.org' } }, 'values.site must be an http(s) URL'],
      ['a date in another format', { values: { name: 'A', born: '29/02/2024' } }, 'values.born must be a date in the form YYYY-MM-DD'],
      ['a date that does not exist', { values: { name: 'A', born: '2023-02-29' } }, 'values.born must be a date in the form YYYY-MM-DD'],
      ['a date with a time', { values: { name: 'A', born: '2024-02-29T00:00:00Z' } }, 'values.born must be a date in the form YYYY-MM-DD'],
      ['an unknown option', { values: { name: 'A', plan: 'gold' } }, 'values.plan must be one of free, pro'],
      ['an option label instead of its value', { values: { name: 'A', plan: 'Pro' } }, 'values.plan must be one of free, pro'],
      ['a checkbox as a string', { values: { name: 'A', agree: 'true' } }, 'values.agree must be a boolean'],
    ];
    for (const [name, body, message] of cases) {
      it(`refuses ${name}`, () => {
        expect(problemOf(body)).to.equal(message);
      });
    }
  });
});

describe('validateSubmissionValues with field names of Object.prototype members', () => {
  // Every member name the field-name pattern allows (`constructor`, `toString`, `valueOf`, …).
  const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).filter((name) => /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name));

  it('has such names to test', () => {
    expect(PROTOTYPE_NAMES).to.include.members(['constructor', 'toString', 'valueOf', 'hasOwnProperty']);
  });

  it('leaves an unanswered optional field out and stores an answered one as given, whatever the names', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...PROTOTYPE_NAMES), { minLength: 1 }),
        fc.func(fc.boolean()),
        fc.string({ minLength: 1, maxLength: 20 }).filter((text) => text.trim() !== ''),
        (names, answers, text) => {
          const fields = [field('name', 'text', { required: true }), ...names.map((name) => field(name, 'text'))];
          const withPrototypeNames = formRecord('acme', 'prototype-names', { sections: [{ title: {}, description: {}, fields }] });
          const answered = names.filter((name) => answers(name));
          const values: Record<string, unknown> = { name: 'Ada' };
          for (const name of answered) Object.defineProperty(values, name, { value: text, enumerable: true });
          const stored = validateSubmissionValues(withPrototypeNames, { values });
          expect(Object.keys(stored).sort()).to.deep.equal(['name', ...answered].sort());
          for (const name of answered) expect(Object.getOwnPropertyDescriptor(stored, name)?.value).to.equal(text);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('still requires a required field named after one', () => {
    const required = formRecord('acme', 'required-constructor', { sections: [{ title: {}, description: {}, fields: [field('constructor', 'text', { required: true })] }] });
    expect(() => validateSubmissionValues(required, { values: {} })).to.throw('values.constructor is required');
  });
});
