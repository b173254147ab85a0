/**
 * docs/permissions.md, the routes and the OpenAPI document all follow one declaration: each use
 * case's `static access`. The table is read cell by cell and compared with what the route's rule
 * implies for each kind of caller, and the document's security with the same rule.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { RouteModuleToken, type RouteDefinition } from '@cms/adapter-koa';
import { ANYONE, ROLES, type Access } from '@cms/core';
import { startTestService, type TestService } from '../testing/test-service.js';

const COLUMNS = ['guest', 'x-user-id', ...ROLES.slice().reverse().map((role) => `bearer ${role}`)] as const;

/** What docs/permissions.md must say for a rule and a caller column. */
function cellFor(rule: Access, column: string): string {
  if (rule.kind === 'guest-engagement') return column === 'guest' ? 'gate' : '✔';
  if (rule.kind !== 'roles') return '✔';
  if (!column.startsWith('bearer ')) return '401';
  return rule.roles.includes(column.slice('bearer '.length) as (typeof ROLES)[number]) ? '✔' : '403';
}

/**
 * The operations a row names: `PUT` / `DELETE /articles/{id}/reaction` → ['PUT /articles/{id}/reaction',
 * 'DELETE /articles/{id}/reaction'] (a bare method takes the next path); `GET /authors/list`,
 * `GET /articles/list` → both.
 */
function operationsOf(cell: string): string[] {
  const named = [...cell.matchAll(/`([A-Z]+)(?: ([^`]+))?`/g)].map(([, method, path]) => ({ method: method!, path }));
  return named.map(({ method }, at) => `${method} ${named.slice(at).find((next) => next.path !== undefined)!.path}`);
}

describe('docs/permissions.md against the use cases’ own access rules', () => {
  let api: TestService;
  let routes: RouteDefinition[];
  let document: any;
  const table = new Map<string, string[]>();
  /** Rows for one query of an operation (`GET /articles/{id}/comments?status=pending`): a rule the use case decides from the query. */
  const byQuery = new Map<string, string[]>();
  before(async () => {
    api = await startTestService();
    routes = api.service.container.getAll<readonly RouteDefinition[]>(RouteModuleToken).flat();
    document = (await api.call('GET', '/openapi.json', { key: null })).body;
    const text = readFileSync(new URL('../../../../docs/permissions.md', import.meta.url), 'utf8');
    for (const line of text.split('\n').filter((l) => l.startsWith('| `'))) {
      const [operation, ...cells] = line.split('|').slice(1, -1).map((cell) => cell.trim());
      for (const name of operationsOf(operation!)) (name.includes('?') ? byQuery : table).set(name, cells.map((cell) => cell.replace(/\s*[¹²³]$/, '')));
    }
  });
  after(() => api.stop());

  const nameOf = (route: RouteDefinition) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`;
  const ruleOf = (route: RouteDefinition) => route.access?.rule ?? ANYONE;

  it('lists every route whose use case needs a role or admits guests', () => {
    const guarded = routes.filter((route) => ['roles', 'guest-engagement'].includes(ruleOf(route).kind)).map(nameOf);
    expect(guarded.length).to.be.greaterThan(5);
    expect([...table.keys()]).to.include.members(guarded);
  });

  it('says, for each listed operation and kind of caller, exactly what the use case’s rule implies', () => {
    expect(table.size).to.be.greaterThan(10);
    for (const [name, cells] of table) {
      const route = routes.find((candidate) => nameOf(candidate) === name);
      expect(route, `${name} is a route`).not.to.equal(undefined);
      expect(cells, name).to.deep.equal(COLUMNS.map((column) => cellFor(ruleOf(route!), column)));
    }
  });

  it('names only routes in the rows for one query of an operation, whose use case decides the rule from the query', () => {
    for (const name of byQuery.keys()) {
      const route = routes.find((candidate) => nameOf(candidate) === name.slice(0, name.indexOf('?')));
      expect(route, `${name} is a route`).not.to.equal(undefined);
      expect(ruleOf(route!).kind, name).to.equal('anyone');
    }
  });

  it('gives role operations a bearer-only security and the use case’s roles as x-roles', () => {
    for (const route of routes) {
      const rule = ruleOf(route);
      const operation = document.paths[route.path.replace(/:(\w+)/g, '{$1}')][route.method.toLowerCase()];
      if (rule.kind === 'roles') {
        expect(operation.security, nameOf(route)).to.deep.equal([{ apiKey: [], bearer: [] }]);
        expect(operation['x-roles'], nameOf(route)).to.deep.equal([...rule.roles]);
      } else {
        expect(operation['x-roles'], nameOf(route)).to.equal(undefined);
      }
      if (rule.kind === 'guest-engagement') expect(Object.keys(operation.responses), nameOf(route)).to.include('429');
    }
  });
});
