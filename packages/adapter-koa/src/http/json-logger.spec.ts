import { expect } from 'chai';
import fc from 'fast-check';
import { JsonLineLogger, LINE_SLOTS, type LineFormat, type LineSlot } from './json-logger.js';

describe('JsonLineLogger', () => {
  const capture = (minimum?: 'debug' | 'info' | 'warn' | 'error') => {
    const lines: string[] = [];
    return { lines, logger: new JsonLineLogger({ write: (line: string) => lines.push(line) }, minimum) };
  };

  describe('when a line has fields', () => {
    it('writes one JSON object per line: time, level, msg, then the fields', () => {
      const { lines, logger } = capture();
      logger.info('request', { method: 'GET', status: 200, note: 'quote " and \n newline' });
      expect(lines).to.have.length(1);
      expect(lines[0]!.endsWith('}\n')).to.equal(true);
      const parsed = JSON.parse(lines[0]!);
      expect(Object.keys(parsed)).to.deep.equal(['time', 'level', 'msg', 'method', 'status', 'note']);
      expect(parsed).to.include({ level: 'info', msg: 'request', method: 'GET', status: 200, note: 'quote " and \n newline' });
      expect(parsed.time).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Math.abs(Date.parse(parsed.time) - Date.now())).to.be.lessThan(1000);
    });
  });

  describe('whatever the field values', () => {
    it('writes the fields exactly as JSON.stringify writes them', () => {
      const value = fc.oneof(
        fc.string(),
        fc.string({ unit: 'grapheme' }),
        fc.constantFrom('/cms/forms/{id}', 'a"b', 'back\\slash', 'tab\there', '\u2028', '\ud800'),
        fc.double(),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.constant(undefined),
        fc.date({ noInvalidDate: true }),
        fc.jsonValue(),
      );
      fc.assert(
        fc.property(fc.dictionary(fc.string(), value), fc.string(), (fields, message) => {
          const { lines, logger } = capture();
          logger.info(message, fields);
          const members = JSON.stringify(fields).slice(1, -1);
          const expected = `{"msg":${JSON.stringify(message)}${members ? `,${members}` : ''}}\n`;
          expect(lines[0]!.replace(/^\{"time":"[^"]+","level":"info",/, '{')).to.equal(expected);
        }),
        { numRuns: 500 },
      );
    });
  });

  describe('when a line has no fields, or empty ones', () => {
    it('writes just time, level and msg', () => {
      const { lines, logger } = capture();
      logger.warn('careful');
      logger.error('broken "thing"', {});
      expect(lines.map((line) => Object.keys(JSON.parse(line)))).to.deep.equal([
        ['time', 'level', 'msg'],
        ['time', 'level', 'msg'],
      ]);
      expect(JSON.parse(lines[1]!).msg).to.equal('broken "thing"');
    });
  });

  describe('when the level is below the minimum', () => {
    it('writes nothing', () => {
      const { lines, logger } = capture('warn');
      logger.info('chatter');
      logger.warn('kept');
      expect(lines.map((line) => JSON.parse(line).msg)).to.deep.equal(['kept']);
    });

    it('orders the levels debug < info < warn < error, at every minimum (LOG_LEVEL)', () => {
      const levels = ['debug', 'info', 'warn', 'error'] as const;
      for (const [rank, minimum] of levels.entries()) {
        const { lines, logger } = capture(minimum);
        for (const level of levels) logger[level](level);
        expect(lines.map((line) => JSON.parse(line).msg), minimum).to.deep.equal(levels.slice(rank));
      }
    });
  });

  describe('the request line (request)', () => {
    const requestValues = fc.tuple(
      fc.oneof(fc.constantFrom('GET', 'POST', 'DELETE'), fc.string()),
      fc.oneof(fc.constant(null), fc.constantFrom('/cms/forms/getById/:id', '/healthz'), fc.string({ unit: 'grapheme' })),
      fc.integer({ min: 100, max: 599 }),
      fc.oneof(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constant(0.01)),
      fc.oneof(fc.uuid(), fc.string(), fc.constantFrom('a"b', 'back\\slash', '\u2028', '\ud800')),
      fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 }),
      fc.oneof(fc.constant(null), fc.constantFrom('acme', 'bench-1'), fc.string()),
    );
    const withoutTime = (line: string) => line.replace(/^\{"time":"[^"]+",/, '{');

    it('writes the text info("request", fields) writes, to an output that writes lines only', () => {
      fc.assert(
        fc.property(requestValues, ([method, route, status, durationMs, requestId, traceId, tenant]) => {
          const { lines, logger } = capture();
          logger.request(method, route, status, durationMs, requestId, traceId, tenant);
          logger.info('request', { method, route, status, durationMs, requestId, traceId, tenant });
          expect(lines).to.have.length(2);
          expect(withoutTime(lines[0]!)).to.equal(withoutTime(lines[1]!));
          expect(JSON.parse(lines[0]!).time).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        }),
        { numRuns: 300 },
      );
    });

    it('hands an output that can write later the time and the values, and the same text is made from them', () => {
      fc.assert(
        fc.property(requestValues, ([method, route, status, durationMs, requestId, traceId, tenant]) => {
          const kept: Array<{ format: LineFormat; slots: LineSlot[] }> = [];
          const written: string[] = [];
          const logger = new JsonLineLogger({ write: (line: string) => written.push(line), writeLater: (format, ...slots) => kept.push({ format, slots }) });
          const before = Date.now();
          logger.request(method, route, status, durationMs, requestId, traceId, tenant);
          expect(written, 'nothing written at once').to.deep.equal([]);
          expect(kept).to.have.length(1);
          const { format, slots } = kept[0]!;
          expect(slots).to.have.length(LINE_SLOTS);
          expect(slots.slice(1)).to.deep.equal([method, route, status, durationMs, requestId, traceId, tenant]);
          expect(slots[0]).to.be.within(before, Date.now());
          logger.info('request', { method, route, status, durationMs, requestId, traceId, tenant });
          const text = format.text(['before', ...slots, 'after'], 1);
          expect(withoutTime(text)).to.equal(withoutTime(written[0]!));
          expect(JSON.parse(text).time).to.equal(new Date(slots[0] as number).toISOString());
        }),
        { numRuns: 200 },
      );
    });

    it('writes nothing when info is below the minimum', () => {
      const kept: unknown[] = [];
      const { lines, logger } = capture('warn');
      logger.request('GET', '/healthz', 200, 0.1, 'r', 't', null);
      new JsonLineLogger({ write: () => kept.push('line'), writeLater: () => kept.push('later') }, 'error').request('GET', null, 404, 0.1, 'r', 't', null);
      expect(lines).to.deep.equal([]);
      expect(kept).to.deep.equal([]);
    });
  });
});
