import { expect } from 'chai';
import fc from 'fast-check';
import { JsonLineLogger } from './json-logger.js';

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
});
