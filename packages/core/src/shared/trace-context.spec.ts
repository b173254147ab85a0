import { expect } from 'chai';
import { parseTraceparent } from './trace-context.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';
const CONTEXT = { traceId: TRACE_ID, spanId: SPAN_ID, flags: '01' };
const withVersion = (version: string, rest = '') => `${version}-${TRACE_ID}-${SPAN_ID}-01${rest}`;

describe('parseTraceparent', () => {
  describe('when the version is 00', () => {
    it('reads a value of exactly 55 characters', () => {
      expect(parseTraceparent(withVersion('00'))).to.deep.equal(CONTEXT);
      expect(parseTraceparent(`00-${TRACE_ID}-${SPAN_ID}-00`)).to.deep.equal({ ...CONTEXT, flags: '00' });
    });

    it('refuses anything after the flags, a dash included', () => {
      expect(parseTraceparent(withVersion('00', '-extra'))).to.equal(undefined);
      expect(parseTraceparent(withVersion('00', '-'))).to.equal(undefined);
      expect(parseTraceparent(withVersion('00', 'x'))).to.equal(undefined);
    });
  });

  describe('when the version is higher than 00 (W3C Trace Context, versioning of traceparent)', () => {
    it('reads the first 55 characters as version 00 would', () => {
      expect(parseTraceparent(withVersion('01'))).to.deep.equal(CONTEXT);
      expect(parseTraceparent(withVersion('cc'))).to.deep.equal(CONTEXT);
      expect(parseTraceparent(withVersion('fe'))).to.deep.equal(CONTEXT);
    });

    it('ignores what follows a dash after the flags', () => {
      expect(parseTraceparent(withVersion('cc', '-extra'))).to.deep.equal(CONTEXT);
      expect(parseTraceparent(withVersion('01', '-what-ever-comes-next'))).to.deep.equal(CONTEXT);
      expect(parseTraceparent(withVersion('01', '-'))).to.deep.equal(CONTEXT);
    });

    it('refuses a value whose flags are followed by anything but a dash', () => {
      expect(parseTraceparent(withVersion('cc', 'extra'))).to.equal(undefined);
      expect(parseTraceparent(withVersion('cc', '0'))).to.equal(undefined);
      expect(parseTraceparent(`cc-${TRACE_ID}-${SPAN_ID}-012`)).to.equal(undefined);
    });

    it('refuses a value shorter than 55 characters or laid out otherwise in its first 55', () => {
      expect(parseTraceparent(`cc-${TRACE_ID}-${SPAN_ID}-1`)).to.equal(undefined);
      expect(parseTraceparent(`cc-${TRACE_ID}-${SPAN_ID}`)).to.equal(undefined);
      expect(parseTraceparent(`cc-${TRACE_ID}0-${SPAN_ID.slice(1)}-01`)).to.equal(undefined);
      expect(parseTraceparent(`cc_${TRACE_ID}-${SPAN_ID}-01`)).to.equal(undefined);
      expect(parseTraceparent(`cc-${TRACE_ID}-${SPAN_ID}-0g`)).to.equal(undefined);
    });
  });

  describe('when the value is invalid in any version', () => {
    it('refuses version ff, even with a valid layout', () => {
      expect(parseTraceparent(withVersion('ff'))).to.equal(undefined);
      expect(parseTraceparent(withVersion('ff', '-extra'))).to.equal(undefined);
    });

    it('refuses a version that is not two lowercase hex digits', () => {
      for (const version of ['CC', 'Cc', '0g', 'zz', '-1']) expect(parseTraceparent(withVersion(version)), version).to.equal(undefined);
    });

    it('refuses an all-zero trace id or span id', () => {
      for (const version of ['00', 'cc']) {
        expect(parseTraceparent(`${version}-${'0'.repeat(32)}-${SPAN_ID}-01`), version).to.equal(undefined);
        expect(parseTraceparent(`${version}-${TRACE_ID}-${'0'.repeat(16)}-01`), version).to.equal(undefined);
      }
    });

    it('refuses upper-case hex in the ids and the flags', () => {
      for (const version of ['00', 'cc']) {
        expect(parseTraceparent(`${version}-${TRACE_ID.toUpperCase()}-${SPAN_ID}-01`), version).to.equal(undefined);
        expect(parseTraceparent(`${version}-${TRACE_ID}-${SPAN_ID.toUpperCase()}-01`), version).to.equal(undefined);
        expect(parseTraceparent(`${version}-${TRACE_ID}-${SPAN_ID}-0A`), version).to.equal(undefined);
      }
    });

    it('refuses an absent or empty header', () => {
      expect(parseTraceparent(undefined)).to.equal(undefined);
      expect(parseTraceparent('')).to.equal(undefined);
    });
  });
});
