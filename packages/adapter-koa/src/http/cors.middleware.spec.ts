import { expect } from 'chai';
import { corsMiddleware } from './cors.middleware.js';

describe('corsMiddleware', () => {
  describe('when its origins list "null"', () => {
    it('refuses to be built, naming the value, so Origin: null is never echoed', () => {
      expect(() => corsMiddleware({ origins: ['https://app.example.com', 'null'] })).to.throw('CORS origins cannot list "null"');
    });
  });
});
