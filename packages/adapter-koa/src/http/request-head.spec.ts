import { expect } from 'chai';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa, { type Context } from 'koa';
import { headerOf, methodOf, pathOf } from './request-head.js';

/**
 * The helpers read Node's request where Koa's `ctx.get`, `ctx.method` and `ctx.path` go through
 * `delegates`: they must give what Koa gives, on a request Node really parsed.
 */
describe('request head: what the per-request layers read, as Koa reads it', () => {
  const seen: Array<{ ctx: Context }> = [];
  const app = new Koa();
  app.use((ctx) => {
    seen.push({ ctx });
    ctx.body = 'ok';
  });
  const server = createServer(app.callback());
  let origin = '';
  before((done) => {
    server.listen(0, '127.0.0.1', () => {
      origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      done();
    });
  });
  after((done) => {
    server.close(() => done());
  });

  it('gives each header, the method and the path as ctx.get, ctx.method and ctx.path do', async () => {
    const headers = new Headers([
      ['X-Api-Key', 'key-1'],
      ['x-user-id', 'u1'],
      ['x-guest-id', 'first'],
      ['x-guest-id', 'second'], // repeated: Node joins it
      ['Authorization', 'Bearer a.b.c'],
    ]);
    for (const [method, path] of [
      ['GET', '/cms/forms/list?limit=20'],
      ['POST', '/cms/Forms/create/'],
      ['DELETE', '/cms/authors/delete/%66f?x=1'],
    ] as const) {
      seen.length = 0;
      await (await fetch(`${origin}${path}`, { method, headers })).text();
      expect(seen).to.have.length(1);
      const { ctx } = seen[0]!;
      for (const name of ['x-api-key', 'x-user-id', 'x-guest-id', 'authorization', 'x-captcha-token', 'content-length']) {
        expect(headerOf(ctx, name), name).to.equal(ctx.get(name));
      }
      expect(headerOf(ctx, 'x-guest-id')).to.equal('first, second');
      expect(headerOf(ctx, 'x-captcha-token')).to.equal('');
      expect(methodOf(ctx)).to.equal(ctx.method).and.to.equal(method);
      expect(pathOf(ctx)).to.equal(ctx.path).and.to.equal(path.split('?')[0]);
    }
  });
});
