import Router from '@koa/router';
import { expect } from 'chai';
import { RouteMatcher } from './route-matcher.js';

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
    expect(matcher.find('/cms/forms/getById/f1/', 'GET')?.params, 'one trailing slash').to.deep.equal({ id: 'f1' });
    expect(matcher.find('/cms/forms/getById/%E0%A4%A', 'GET')?.params, 'undecodable: kept raw').to.deep.equal({ id: '%E0%A4%A' });
  });

  it('finds nothing for another method, another path, or a path outside the base path', () => {
    expect(matcher.find('/cms/articles/abc/reaction', 'GET')).to.equal(undefined);
    expect(matcher.find('/cms/articles/abc/other', 'PUT')).to.equal(undefined);
    expect(matcher.find('/other/articles/abc/reaction', 'PUT')).to.equal(undefined);
    expect(matcher.find('/cmsx/articles/abc/reaction', 'PUT')).to.equal(undefined);
    expect(matcher.find('/cms/articles//reaction', 'PUT'), 'an empty parameter').to.equal(undefined);
    expect(matcher.find('/cms/forms/getById/f1//', 'GET'), 'two trailing slashes').to.equal(undefined);
  });

  it('answers the methods a path takes (for 405 Allow), and none for an unknown path', () => {
    expect(matcher.allowedMethods('/cms/articles/abc/reaction')).to.deep.equal(['PUT', 'DELETE']);
    expect(matcher.allowedMethods('/cms/forms/getById/f1')).to.deep.equal(['HEAD', 'GET']);
    expect(matcher.allowedMethods('/cms/nowhere')).to.deep.equal([]);
  });

  // @koa/router is the reference for what a route path means: on the service's own route
  // table, the tree answers every probe exactly as the router's `match` would.
  describe('agrees with @koa/router, the reference for route paths', () => {
    const table: Array<[string, string]> = [
      ['PUT', '/reports/dashboardConfig'], ['GET', '/reports/dashboardConfig'], ['POST', '/forms/create'],
      ['GET', '/forms/getById/:id'], ['GET', '/forms/getBySlug/:slug'], ['GET', '/forms/getNextById/:id'],
      ['GET', '/forms/list'], ['PATCH', '/forms/update/:id'], ['DELETE', '/forms/delete/:id'],
      ['POST', '/forms/:id/submit'], ['POST', '/forms/:id/internal-submit'], ['GET', '/forms/:id/submissions'],
      ['GET', '/forms/:id/submissions/export'], ['GET', '/forms/submission/:id'],
      ['POST', '/forms/submission/:id/relations/:fieldName/connect'], ['POST', '/forms/submission/:id/relations/:fieldName/disconnect'],
      ['PUT', '/articles/:id/reaction'], ['DELETE', '/articles/:id/reaction'], ['GET', '/articles/:id/comments'],
      ['POST', '/articles/:id/comments'], ['PUT', '/articles/comments/:commentId/reaction'], ['PUT', '/articles/comments/:commentId/approve'],
      ['GET', '/articles/comments/:commentId/reactionSummary'], ['DELETE', '/articles/comments/:commentId'],
      ['GET', '/articles/getById/:id'], ['POST', '/articles/create'], ['GET', '/articles/list'],
      ['GET', '/ai/repurpose/template'], ['PUT', '/ai/repurpose/template'], ['POST', '/ai/translate'],
      ['DELETE', '/authors/delete/:id'], ['GET', '/authors/getById/:id'], ['GET', '/webhooks/:id/deliveries'], ['GET', '/webhooks/getById/:id'],
    ];
    const tree = new RouteMatcher<number>('/cms');
    const router = new Router({ prefix: '/cms' });
    const layers = new Map<unknown, number>();
    table.forEach(([method, path], i) => {
      tree.add(path, method, i);
      layers.set(router.register(path, [method], () => undefined), i);
    });
    const viaRouter = (path: string, method: string) => {
      const match = router.match(path, method);
      if (!match.route) return undefined;
      const layer = match.pathAndMethod.find((candidate) => layers.has(candidate))!;
      return { handler: layers.get(layer), params: layer.params(path, layer.captures(path)) };
    };
    const allowedViaRouter = (path: string) => [...new Set(router.match(path, 'GET').path.flatMap((layer) => layer.methods))];

    // Each template with its parameters filled in many ways, in several spellings, plus near misses.
    const fills = ['abc', '65f0c0ffee0000000000abcd', 'getById', 'submissions', 'create', 'a%20b', '%E0%A4%A', '%2F', 'x.y', 'ümlaut'];
    const probes = new Set<string>(['/cms', '/cms/', '/cms//', '/CMS/forms/LIST', '/cms/forms', '/cms/forms/', '/cmsforms/list', '/other/forms/list']);
    for (const [, template] of table) {
      for (const fill of fills) {
        const path = `/cms${template.replace(/:\w+/g, fill)}`;
        for (const spelling of [path, `${path}/`, `${path}//`, path.toUpperCase(), `${path}/extra`, path.replace(/\/[^/]*$/, '//'), path.slice(0, -1)]) probes.add(spelling);
      }
    }

    it(`finds the same route, with the same parameters, for ${probes.size} paths and every method`, () => {
      for (const path of probes) {
        for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
          expect(tree.find(path, method), `${method} ${path}`).to.deep.equal(viaRouter(path, method));
        }
      }
    });

    it('allows the same methods, in the same order, on each of those paths', () => {
      for (const path of probes) expect(tree.allowedMethods(path), path).to.deep.equal(allowedViaRouter(path));
    });
  });
});
