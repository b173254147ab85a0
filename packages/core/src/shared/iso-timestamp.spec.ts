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

  it('keeps toISOString for the edges of the fixed shape, years beyond it, and invalid dates', () => {
    for (const text of ['0000-01-01T00:00:00.000Z', '1969-12-31T23:59:59.999Z', '1970-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z']) {
      expect(isoTimestamp(new Date(text))).to.equal(text);
    }
    for (const ms of [-62167219200001, 253402300800000, 8.64e15]) expect(isoTimestamp(new Date(ms))).to.equal(new Date(ms).toISOString());
    expect(() => isoTimestamp(new Date(Number.NaN))).to.throw(RangeError);
  });
});
