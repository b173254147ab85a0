import { expect } from 'chai';
import { USAGE_MONTH_PATTERN, usageMonthOf } from './ai-quota.js';

describe('usageMonthOf', () => {
  describe('when given moments around month ends', () => {
    it('answers the UTC calendar month as YYYY-MM, as toISOString would', () => {
      const cases: Array<[string, string]> = [
        ['2026-01-31T23:59:59.999Z', '2026-01'],
        ['2026-02-01T00:00:00.000Z', '2026-02'],
        ['2026-09-15T12:00:00.000Z', '2026-09'],
        ['2026-10-01T00:00:00.000Z', '2026-10'],
        ['2026-12-31T23:59:59.999Z', '2026-12'],
        ['0999-05-05T00:00:00.000Z', '0999-05'],
      ];
      for (const [iso, month] of cases) {
        expect(usageMonthOf(new Date(iso)), iso).to.equal(month);
        expect(usageMonthOf(new Date(iso)), iso).to.equal(new Date(iso).toISOString().slice(0, 7));
        expect(USAGE_MONTH_PATTERN.test(usageMonthOf(new Date(iso))), iso).to.equal(true);
      }
    });
  });
});
