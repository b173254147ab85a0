import { expect } from 'chai';
import { randomText, seededRandom } from '@cms/core/testing';
import Koa, { type Context } from 'koa';
import { requestQuery } from './request-query.js';

const app = new Koa();
const contextFor = (url: string): Context => app.createContext({ url, headers: {}, socket: {} } as never, {} as never) as Context;

/** Koa's own parse of the query (`ctx.query`), as entries in order. */
const koaEntries = (url: string) => Object.entries(contextFor(url).query);

describe('requestQuery: the query parameters, parsed once per request', () => {
  const written = [
    'limit=20',
    'a=1&a=2&a=3',
    'flag',
    '+x+=%20y',
    '%zz=%C3',
    '=x',
    '&&a=&b',
    '__proto__=1&constructor=2&toString=3',
    'toString&valueOf=1&hasOwnProperty=2&hasOwnProperty=3',
    '__proto__=1&__proto__=2',
    'x=%E2%82%AC&y=%F0%9F%98%80',
    'a=b=c',
    'a[]=1&a[]=2',
    '%=%&a%3Db=1&c=%2&d=%G1',
    ';a=1;b=2',
    'limit=20&captchaToken=abc&cursor=eyJ9.x',
    '?a=1',
    '??a=1',
    'a=%2€&€=%E2%82%AC',
  ];
  for (const query of written) {
    it(`reads ${JSON.stringify(query)} as Koa does`, () => {
      expect(Object.entries(requestQuery(contextFor(`/cms/forms/list?${query}`)))).to.deep.equal(koaEntries(`/cms/forms/list?${query}`));
    });
  }

  // Texts with escapes and `+` go through `node:querystring`; texts with nothing to decode are split by hand.
  const generated = [
    { seed: 7, alphabet: 'ab=&%+2C3F;_ €?#', what: 'query strings' },
    { seed: 11, alphabet: 'ab=&=&_;.~-?t', what: 'query strings with nothing to decode' },
  ];
  for (const { seed, alphabet, what } of generated) {
    it(`reads 20,000 generated ${what} as Koa does`, () => {
      const random = seededRandom(seed);
      for (let i = 0; i < 20_000; i += 1) {
        const query = randomText(random, alphabet, 16);
        const url = `/x?${query}`;
        expect(Object.entries(requestQuery(contextFor(url))), JSON.stringify(query)).to.deep.equal(koaEntries(url));
      }
    });
  }

  it('keeps `__proto__` as a parameter, not as the object’s prototype', () => {
    const query = requestQuery(contextFor('/x?__proto__=polluted'));
    expect(Object.getOwnPropertyDescriptor(query, '__proto__')?.value).to.equal('polluted');
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect({ ...query }).to.have.own.property('__proto__', 'polluted');
  });

  it('inherits no member: a parameter is there only when it was sent', () => {
    const query = requestQuery(contextFor('/x?limit=5'));
    for (const name of ['toString', 'constructor', 'hasOwnProperty', 'valueOf', '__proto__']) expect(query[name], name).to.equal(undefined);
    expect(Object.keys(query)).to.deep.equal(['limit']);
    expect(Object.isFrozen(Object.getPrototypeOf(query))).to.equal(true);
  });

  it('has no key limit, like Koa: every one of 1,500 keys is read', () => {
    const url = `/x?${Array.from({ length: 1500 }, (_, i) => `k${i}=${i}`).join('&')}`;
    expect(Object.keys(requestQuery(contextFor(url)))).to.have.length(1500);
  });

  it('parses once per request and gives an empty set without a query string', () => {
    const ctx = contextFor('/x?limit=5');
    expect(requestQuery(ctx)).to.equal(requestQuery(ctx));
    expect(Object.keys(requestQuery(contextFor('/x')))).to.deep.equal([]);
    expect(Object.keys(requestQuery(contextFor('/x?')))).to.deep.equal([]);
  });
});
