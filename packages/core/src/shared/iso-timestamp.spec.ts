import { expect } from 'chai';
import { isoTimestamp } from './iso-timestamp.js';

describe('isoTimestamp', () => {
  it('writes what toISOString writes, for runs within a second and jumps across years (5,000 dates)', () => {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let ms = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 5000; i += 1) {
      // Mostly small steps (same second, next second), sometimes a jump anywhere in 0000-9999.
      ms = random() < 0.05 ? Math.floor(random() * 2 * 253402300799999) - 62167219200000 : ms + Math.floor(random() * 700);
      const date = new Date(ms);
      expect(isoTimestamp(date), String(ms)).to.equal(date.toISOString());
    }
  });

  it('writes what toISOString writes for dates anywhere in 0000-9999, one second apart from the last or not (20,000 dates)', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const first = Date.parse('0000-01-01T00:00:00.000Z');
    const span = Date.parse('9999-12-31T23:59:59.999Z') - first;
    for (let i = 0; i < 20_000; i += 1) {
      const date = new Date(first + Math.floor(random() * span));
      expect(isoTimestamp(date), String(date.getTime())).to.equal(date.toISOString());
    }
    // Leap days, century years (2000 leaps, 1900 and 2100 do not), month and year ends.
    for (const text of ['2000-02-29T12:00:00.000Z', '1900-02-28T23:59:59.999Z', '1900-03-01T00:00:00.000Z', '2100-03-01T00:00:00.001Z', '2024-12-31T23:59:59.999Z', '0004-02-29T00:00:00.000Z', '0400-02-29T08:00:00.000Z']) {
      expect(isoTimestamp(new Date(text))).to.equal(text);
    }
  });

  it('keeps toISOString for the edges of the fixed shape, years beyond it, and invalid dates', () => {
    for (const text of ['0000-01-01T00:00:00.000Z', '1969-12-31T23:59:59.999Z', '1970-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z']) {
      expect(isoTimestamp(new Date(text))).to.equal(text);
    }
    for (const ms of [-62167219200001, 253402300800000, 8.64e15]) expect(isoTimestamp(new Date(ms))).to.equal(new Date(ms).toISOString());
    expect(() => isoTimestamp(new Date(Number.NaN))).to.throw(RangeError);
  });
});
