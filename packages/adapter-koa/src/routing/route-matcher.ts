/**
 * Matches a request path and method to a declared route, on @koa/router's path matching.
 *
 * The router is used as a matcher, not as middleware: its `routes()` dispatch composes a
 * middleware chain on every request, which one pipeline per route does not need. That takes
 * `register` and `match`, which @koa/router marks private. They are used here and nowhere else,
 * a route's handler is found by the layer `register` returned (never through the layer's
 * internals), and `assertRouterSupportsMatching` runs when routes are mounted: if a new
 * @koa/router changes any of it, the service refuses to start with a message saying so.
 */
import Router, { type Layer } from '@koa/router';

export interface RouteMatch<H> {
  readonly handler: H;
  readonly params: Record<string, string>;
}

export class RouteMatcher<H> {
  // One router per first path segment (`/forms/...`, `/articles/...`): @koa/router tries every
  // route's pattern on each match, so a request only meets the patterns of its own group.
  readonly #groups = new Map<string, Router>();
  readonly #handlers = new Map<Layer, H>();

  constructor(private readonly basePath: string) {
    assertRouterSupportsMatching();
  }

  add(path: string, method: string, handler: H): void {
    const group = this.#groupOf(this.basePath + path)!;
    let router = this.#groups.get(group);
    if (!router) this.#groups.set(group, (router = new Router({ prefix: this.basePath })));
    this.#handlers.set(router.register(path, [method], NEVER_CALLED) as Layer, handler);
  }

  /** The route for this path and method, with its path parameters; undefined when none. */
  find(path: string, method: string): RouteMatch<H> | undefined {
    const match = this.#groups.get(this.#groupOf(path) ?? '')?.match(path, method);
    if (!match?.route) return undefined;
    for (const layer of match.pathAndMethod) {
      const handler = this.#handlers.get(layer);
      if (handler) return { handler, params: layer.params(path, layer.captures(path)) };
    }
    return undefined;
  }

  /** The methods some route takes on this path (with HEAD for GET); empty when no route has the path. */
  allowedMethods(path: string): string[] {
    const layers = this.#groups.get(this.#groupOf(path) ?? '')?.match(path, 'GET').path ?? [];
    return [...new Set(layers.flatMap((layer) => layer.methods))];
  }

  /**
   * The first segment after the base path, lower-cased as the router compares paths
   * (case-insensitively); undefined when the path is not under the base path.
   */
  #groupOf(path: string): string | undefined {
    const { basePath } = this;
    const start = basePath.length + 1;
    if (path.charCodeAt(start - 1) !== 0x2f || path.slice(0, basePath.length).toLowerCase() !== basePath.toLowerCase()) return undefined;
    const end = path.indexOf('/', start);
    return path.slice(start, end < 0 ? undefined : end).toLowerCase();
  }
}

/** Routes are run by their pipeline, never by the router; a call here means a wiring bug. */
const NEVER_CALLED = () => {
  throw new Error('a route layer was run by @koa/router instead of its pipeline');
};

let verified = false;

/**
 * Proves, once per process, what `RouteMatcher` relies on: `register` answers the layer it
 * created, `match` finds it by path and method (`route`, `pathAndMethod`, `path`), and the layer
 * answers its `methods` and decoded `params`. Throws, naming the router's version, otherwise.
 */
export function assertRouterSupportsMatching(RouterClass: new (options?: { prefix?: string }) => Router = Router): void {
  if (verified && RouterClass === Router) return;
  const fail = (what: string) => {
    throw new Error(`@koa/router no longer supports matching as routing/route-matcher.ts uses it (${what}); update that file`);
  };
  try {
    const router = new RouterClass({ prefix: '/base' });
    const layer = router.register('/probe/:id', ['GET'], NEVER_CALLED) as Partial<Layer> | undefined;
    const found = router.match('/base/probe/a%20b', 'GET');
    if (!found?.route || !Array.isArray(found.pathAndMethod) || !found.pathAndMethod.includes(layer as Layer)) fail('match by path and method');
    const params = layer!.params!('/base/probe/a%20b', layer!.captures!('/base/probe/a%20b'));
    if (params.id !== 'a b') fail('decoded path parameters');
    const other = router.match('/base/probe/x', 'DELETE');
    if (other.route || other.pathAndMethod.length !== 0 || !other.path.includes(layer as Layer)) fail('match by path alone');
    if (!layer!.methods!.includes('GET') || !layer!.methods!.includes('HEAD')) fail('layer methods');
    if (router.match('/base/elsewhere', 'GET').path.length !== 0) fail('a path no route has');
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('@koa/router no longer')) throw error;
    fail(error instanceof Error ? error.message : String(error));
  }
  if (RouterClass === Router) verified = true;
}
