import { expect } from 'chai';
import { ConfigError, EnvReader } from './env-reader.js';

describe('EnvReader', () => {
  describe('when a variable is unset or empty', () => {
    it('reads it as unset, so the default applies', () => {
      for (const env of [{}, { CMS_JWT_SECRET: '', PORT: '', CMS_LANGUAGES: '' }]) {
        const read = new EnvReader(env);
        expect(read.raw('CMS_JWT_SECRET')).to.equal(undefined);
        expect(read.string('CMS_JWT_SECRET')).to.equal(undefined);
        expect(read.int('PORT', 3000, 0, 65535)).to.equal(3000);
        expect(read.list('CMS_LANGUAGES')).to.equal(undefined);
      }
    });
  });

  describe('when a variable is set to whitespace only', () => {
    const blanks = [' ', '   ', '\t', '\n', ' \r\n '];
    it('refuses it by name, whichever way it is read', () => {
      for (const blank of blanks) {
        const read = new EnvReader({ X: blank });
        const reads: Array<() => unknown> = [
          () => read.raw('X'),
          () => read.string('X'),
          () => read.int('X', 1, 0, 9),
          () => read.flag('X', true),
          () => read.oneOf('X', ['a'] as const, 'a'),
          () => read.list('X'),
          () => read.bytes('X', 1),
        ];
        for (const reading of reads) {
          expect(reading, JSON.stringify(blank)).to.throw(ConfigError, /^X is only whitespace: give it a value, or set it empty \(or unset it\) to leave it unset$/);
        }
      }
    });
  });

  describe('when a value has whitespace around it', () => {
    it('trims it for `string`, and keeps it as given for `raw`', () => {
      const read = new EnvReader({ X: '  value \n' });
      expect(read.string('X')).to.equal('value');
      expect(read.raw('X')).to.equal('  value \n');
    });
  });
});
