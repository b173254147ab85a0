/**
 * `date.toISOString()`, faster for runs of dates within one second (an export's rows): the text
 * up to the seconds is kept from the previous call, and only the milliseconds are written.
 * `toISOString` cost ~0.7 µs a call on this machine kind, 70 µs of a 100-row CSV export.
 */

/** The last second formatted, and its text up to the `.` before the milliseconds. */
let cachedSecond = Number.NaN;
let cachedPrefix = '';

/** Years 0000-9999: the range whose text has the fixed `YYYY-MM-DDTHH:MM:SS.mmmZ` shape. */
const FIRST_FIXED_SHAPE_MS = Date.parse('0000-01-01T00:00:00.000Z');
const LAST_FIXED_SHAPE_MS = Date.parse('9999-12-31T23:59:59.999Z');

export function isoTimestamp(date: Date): string {
  const ms = date.getTime();
  if (!(ms >= FIRST_FIXED_SHAPE_MS && ms <= LAST_FIXED_SHAPE_MS)) return date.toISOString(); // also throws for an invalid date, as it does
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond) {
    cachedPrefix = date.toISOString().slice(0, 20);
    cachedSecond = second;
  }
  const milli = ms - second * 1000;
  return `${cachedPrefix}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}
