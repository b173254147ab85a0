import { expect } from 'chai';
import { errorText } from './error-text.js';

describe('errorText', () => {
  it("gives an Error's message, and anything else thrown as a string", () => {
    expect(errorText(new TypeError('bad input'))).to.equal('bad input');
    expect(errorText('plain text')).to.equal('plain text');
    expect(errorText(42)).to.equal('42');
    expect(errorText(undefined)).to.equal('undefined');
  });

  it('cuts a text longer than max to max characters ending in an ellipsis, and leaves one of max as it is', () => {
    expect(errorText(new Error('abcdef'), 4)).to.equal('abc…');
    expect(errorText(new Error('abcd'), 4)).to.equal('abcd');
    expect(errorText('x'.repeat(10_000))).to.have.length(10_000);
  });
});
