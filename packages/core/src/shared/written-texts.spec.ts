import { expect } from 'chai';
import { noteWrittenText, takeWrittenText } from './written-texts.js';

describe('written texts (a store hands the text it wrote to the answer)', () => {
  it('hands the noted text to the same record, once', () => {
    const record = { id: 'f1' };
    noteWrittenText(record, '{"id":"f1"}');
    expect(takeWrittenText(record)).to.equal('{"id":"f1"}');
    expect(takeWrittenText(record), 'taken already').to.equal(undefined);
  });

  it('never hands a text to another record, even an equal one', () => {
    noteWrittenText({ id: 'f2' }, '{"id":"f2"}');
    expect(takeWrittenText({ id: 'f2' })).to.equal(undefined);
  });

  it('keeps the newest eight: an older record is serialised again, not answered with a wrong text', () => {
    const first = { id: 'first' };
    noteWrittenText(first, '{"id":"first"}');
    const later = Array.from({ length: 8 }, (_, i) => ({ id: `later-${i}` }));
    later.forEach((record) => noteWrittenText(record, JSON.stringify(record)));
    expect(takeWrittenText(first)).to.equal(undefined);
    expect(later.map((record) => takeWrittenText(record))).to.deep.equal(later.map((record) => JSON.stringify(record)));
  });
});
