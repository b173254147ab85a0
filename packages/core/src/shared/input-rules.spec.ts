import { expect } from 'chai';
import { optionalLongText, requiredText } from './input-rules.js';

describe('input rules', () => {
  describe('requiredText', () => {
    it('counts characters, not UTF-16 units: 200 emoji fit a limit of 200, 201 do not', () => {
      expect(requiredText(` ${'😀'.repeat(200)} `, 'name', 200)).to.equal('😀'.repeat(200));
      expect(() => requiredText('😀'.repeat(201), 'name', 200)).to.throw('name must be at most 200 characters');
    });

    it('refuses absent, non-string and blank values by path', () => {
      expect(() => requiredText(undefined, 'name', 5)).to.throw('name is required');
      expect(() => requiredText(5, 'name', 5)).to.throw('name must be a string');
      expect(() => requiredText(' \t', 'name', 5)).to.throw('name must not be blank');
      expect(() => requiredText('abcdef', 'name', 5)).to.throw('name must be at most 5 characters');
    });
  });

  describe('optionalLongText', () => {
    it('counts characters, not UTF-16 units: 5,000 emoji fit a limit of 5,000, 5,001 do not', () => {
      expect(optionalLongText('😀'.repeat(5000), 'bio', 5000, null)).to.equal('😀'.repeat(5000));
      expect(() => optionalLongText('😀'.repeat(5001), 'bio', 5000, null)).to.throw('bio must be at most 5000 characters');
    });

    it('gives the fallback for an absent value and keeps a present one exactly', () => {
      expect(optionalLongText(null, 'bio', 10, '')).to.equal('');
      expect(optionalLongText('  x ', 'bio', 10, '')).to.equal('  x ');
    });
  });
});
