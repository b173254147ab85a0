import Router from '@koa/router';
import { expect } from 'chai';
import { assertRouterSupportsMatching, RouteMatcher } from './route-matcher.js';

describe('RouteMatcher', () => {
  const matcher = new RouteMatcher<string>('/cms');
  matcher.add('/articles/:id/reaction', 'PUT', 'set');
  matcher.add('/articles/:id/reaction', 'DELETE', 'remove');
  matcher.add('/articles/comments/:commentId/approve', 'PUT', 'approve');
  matcher.add('/forms/getById/:id', 'GET', 'get-form');

  it('finds the route of a path and method, with decoded path parameters, case-insensitively', () => {
    expect(matcher.find('/cms/articles/abc/reaction', 'PUT')).to.deep.equal({ handler: 'set', params: { id: 'abc' } });
    expect(matcher.find('/cms/articles/a%20b/reaction', 'DELETE')).to.deep.equal({ handler: 'remove', params: { id: 'a b' } });
    expect(matcher.find('/CMS/Articles/comments/c1/approve', 'PUT')?.handler).to.equal('approve');
    expect(matcher.find('/cms/forms/getById/f1', 'HEAD')?.handler, 'HEAD is served by GET').to.equal('get-form');
  });

  it('finds nothing for another method, another path, or a path outside the base path', () => {
    expect(matcher.find('/cms/articles/abc/reaction', 'GET')).to.equal(undefined);
    expect(matcher.find('/cms/articles/abc/other', 'PUT')).to.equal(undefined);
    expect(matcher.find('/other/articles/abc/reaction', 'PUT')).to.equal(undefined);
    expect(matcher.find('/cmsx/articles/abc/reaction', 'PUT')).to.equal(undefined);
  });

  it('answers the methods a path takes (for 405 Allow), and none for an unknown path', () => {
    expect(matcher.allowedMethods('/cms/articles/abc/reaction')).to.have.members(['PUT', 'DELETE']);
    expect(matcher.allowedMethods('/cms/forms/getById/f1')).to.have.members(['GET', 'HEAD']);
    expect(matcher.allowedMethods('/cms/nowhere')).to.deep.equal([]);
  });

  describe('the mount-time check of @koa/router', () => {
    it('passes on the installed router', () => {
      expect(() => assertRouterSupportsMatching(Router)).not.to.throw();
    });

    it('fails loudly, naming the file to update, when the router stops answering what the matcher relies on', () => {
      class MatchesNothing extends Router {
        override match(path: string, method: string) {
          return { ...super.match(path, method), pathAndMethod: [], route: false };
        }
      }
      class NoRegister extends Router {
        override register(): never {
          throw new TypeError('register is not a function');
        }
      }
      expect(() => assertRouterSupportsMatching(MatchesNothing)).to.throw(/@koa\/router no longer supports matching as routing\/route-matcher\.ts uses it \(match by path and method\)/);
      expect(() => assertRouterSupportsMatching(NoRegister)).to.throw(/route-matcher\.ts uses it \(register is not a function\)/);
    });
  });
});
