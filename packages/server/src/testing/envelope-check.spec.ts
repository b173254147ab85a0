import { expect } from 'chai';
import { envelopeProblems, idsIn } from './envelope-check.js';

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'r1', ...headers },
  text: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('envelopeProblems', () => {
  describe('when the answer is a proper envelope', () => {
    it('finds nothing for a success and for a 400 with errors', () => {
      expect(envelopeProblems(answer(200, { success: true, statusCode: 200, message: 'OK', data: { a: 1 } }))).to.deep.equal([]);
      const invalid = { success: false, statusCode: 400, message: 'Validation failed: x is required', data: null, errors: [{ path: 'x', message: 'is required' }] };
      expect(envelopeProblems(answer(400, invalid))).to.deep.equal([]);
    });
  });

  describe('when the answer is a successful export (§6.6)', () => {
    it('takes CSV and NDJSON as they are, but not on an error status', () => {
      expect(envelopeProblems(answer(200, 'id,createdAt\r\n', { 'content-type': 'text/csv; charset=utf-8' }))).to.deep.equal([]);
      expect(envelopeProblems(answer(200, '{"id":"x"}\n', { 'content-type': 'application/x-ndjson' }))).to.deep.equal([]);
      expect(envelopeProblems(answer(404, 'nope', { 'content-type': 'text/csv; charset=utf-8' }))).to.not.deep.equal([]);
    });
  });

  describe('when the answer breaks the contract', () => {
    it('names a server error, a status mismatch, a wrong success flag and data on an error', () => {
      expect(envelopeProblems(answer(500, { success: false, statusCode: 500, message: 'Server Error', data: null }))).to.deep.equal(['status 500 is a server error']);
      expect(envelopeProblems(answer(404, { success: true, statusCode: 400, message: 'Nope', data: {} }))).to.deep.equal([
        'statusCode 400 differs from HTTP 404',
        'success is true for HTTP 404',
        'data is not null on an error',
      ]);
    });

    it('names extra keys, errors outside a 400, an empty message and a body that is not JSON', () => {
      expect(envelopeProblems(answer(401, { success: false, statusCode: 401, message: '', data: null, errors: [] }))).to.deep.equal([
        'keys are data, errors, message, statusCode, success',
        'message is not a non-empty string',
      ]);
      expect(envelopeProblems(answer(400, 'Bad Request', { 'content-type': 'text/plain' }))).to.deep.equal([
        'content-type is text/plain',
        'body is not JSON: Bad Request',
      ]);
    });

    it('names a missing request id', () => {
      const res = answer(200, { success: true, statusCode: 200, message: 'OK', data: null });
      expect(envelopeProblems({ ...res, headers: { 'content-type': 'application/json' } })).to.deep.equal(['no x-request-id header']);
    });
  });
});

describe('idsIn', () => {
  describe('when data holds record ids at any depth', () => {
    it('collects each 24-hex id once, lower-cased, and nothing else', () => {
      const ids = new Set<string>();
      idsIn({ form: { id: 'ABCDEF0123456789ABCDEF01', flow: { nextFormId: 'abcdef0123456789abcdef02' } }, list: ['abcdef0123456789abcdef01', 'short', 7] }, ids);
      expect([...ids]).to.deep.equal(['abcdef0123456789abcdef01', 'abcdef0123456789abcdef02']);
    });
  });
});
