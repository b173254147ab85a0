/**
 * Matches a request path and method to a declared route: a tree of path segments, walked once
 * per request (decision 0722).
 *
 * Route paths use @koa/router's syntax as the service declares it: static segments and
 * `:name` parameters, under a base path. Matching keeps @koa/router's semantics (its test is
 * the oracle in route-matcher.spec.ts): case-insensitive static segments, one optional trailing
 * slash, a parameter is one non-empty segment decoded with `decodeURIComponent` (kept raw when
 * that fails), HEAD is served by GET, and where two routes could take one path the one declared
 * first wins. @koa/router tries every route's regular expression in turn and decodes through a
 * try/catch; walking the tree costs one map lookup per segment.
 */

export interface RouteMatch<H> {
  readonly handler: H;
  readonly params: Record<string, string>;
}

interface Leaf<H> {
  /** Declaration order: the first declared route wins a path two routes could take. */
  readonly order: number;
  readonly methods: readonly string[];
  readonly handler: H;
  /** The parameter names, in the order of the path's parameter segments. */
  readonly names: readonly string[];
}

interface SegmentNode<H> {
  readonly statics: Map<string, SegmentNode<H>>;
  param?: SegmentNode<H>;
  readonly leaves: Leaf<H>[];
}

const newNode = <H>(): SegmentNode<H> => ({ statics: new Map(), leaves: [] });

export class RouteMatcher<H> {
  readonly #root = newNode<H>();
  readonly #basePath: string;
  readonly #base: string;
  #declared = 0;

  constructor(basePath: string) {
    this.#basePath = basePath;
    this.#base = basePath.toLowerCase();
  }

  add(path: string, method: string, handler: H): void {
    let node = this.#root;
    const names: string[] = [];
    for (const segment of path.split('/').slice(1)) {
      if (segment.startsWith(':')) {
        names.push(segment.slice(1));
        node = node.param ??= newNode();
      } else {
        const key = segment.toLowerCase();
        let next = node.statics.get(key);
        if (!next) node.statics.set(key, (next = newNode()));
        // Also under its declared spelling, which is how requests spell it: no lower-casing then.
        node.statics.set(segment, next);
        node = next;
      }
    }
    const upper = method.toUpperCase();
    node.leaves.push({ order: this.#declared++, methods: upper === 'GET' ? ['HEAD', 'GET'] : [upper], handler, names });
  }

  /** The route for this path and method, with its decoded path parameters; undefined when none. */
  find(path: string, method: string): RouteMatch<H> | undefined {
    const segments = this.#segmentsOf(path);
    if (!segments) return undefined;
    const found = bestLeaf(this.#root, segments, 0, [], method);
    if (!found) return undefined;
    const params: Record<string, string> = {};
    const { names, values } = found;
    for (let i = 0; i < names.length; i++) params[names[i]!] = decoded(values[i]!);
    return { handler: found.leaf.handler, params };
  }

  /** The methods some route takes on this path (with HEAD for GET), in declaration order; empty when no route has the path. */
  allowedMethods(path: string): string[] {
    const segments = this.#segmentsOf(path);
    if (!segments) return [];
    const leaves: Leaf<H>[] = [];
    collectLeaves(this.#root, segments, 0, leaves);
    return [...new Set(leaves.sort((a, b) => a.order - b.order).flatMap((leaf) => leaf.methods))];
  }

  /** The path's segments after the base path, without one trailing empty segment; undefined when outside the base path. */
  #segmentsOf(path: string): string[] | undefined {
    const base = this.#base;
    if (path.charCodeAt(base.length) !== 0x2f) return undefined;
    if (!path.startsWith(this.#basePath) && path.slice(0, base.length).toLowerCase() !== base) return undefined;
    const segments = splitSegments(path, base.length + 1);
    if (segments.length > 1 && segments[segments.length - 1] === '') segments.pop();
    return segments;
  }
}

interface Found<H> {
  readonly leaf: Leaf<H>;
  readonly names: readonly string[];
  readonly values: readonly string[];
}

/** The earliest-declared leaf under `node` that takes the rest of the path and `method`. */
function bestLeaf<H>(node: SegmentNode<H>, segments: readonly string[], at: number, captured: string[], method: string): Found<H> | undefined {
  if (at === segments.length) {
    for (const leaf of node.leaves) if (leaf.methods.includes(method)) return { leaf, names: leaf.names, values: captured.slice() }; // in declaration order
    return undefined;
  }
  const segment = segments[at]!;
  if (segment === '') return undefined;
  const next = staticChild(node, segment);
  const viaStatic = next && bestLeaf(next, segments, at + 1, captured, method);
  if (!node.param) return viaStatic;
  captured.push(segment);
  const viaParam = bestLeaf(node.param, segments, at + 1, captured, method);
  captured.pop();
  if (!viaStatic || !viaParam) return viaStatic ?? viaParam;
  return viaStatic.leaf.order < viaParam.leaf.order ? viaStatic : viaParam;
}

function collectLeaves<H>(node: SegmentNode<H>, segments: readonly string[], at: number, into: Leaf<H>[]): void {
  if (at === segments.length) {
    into.push(...node.leaves);
    return;
  }
  const segment = segments[at]!;
  if (segment === '') return;
  const next = staticChild(node, segment);
  if (next) collectLeaves(next, segments, at + 1, into);
  if (node.param) collectLeaves(node.param, segments, at + 1, into);
}

/** The static child for this segment: as spelled, else lower-cased (ids, which most often meet no static child, are lower-cased only where there is one). */
function staticChild<H>(node: SegmentNode<H>, segment: string): SegmentNode<H> | undefined {
  if (node.statics.size === 0) return undefined;
  return node.statics.get(segment) ?? node.statics.get(segment.toLowerCase());
}

/** A parameter as @koa/router hands it over: percent-decoded, or raw when that fails. */
function decoded(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * `path.slice(from).split('/')`, by `indexOf`: V8 splits a string it has not seen before in its
 * runtime (C++), which perf showed on every request (decision 0790); this stays in compiled code.
 */
function splitSegments(path: string, from: number): string[] {
  const segments: string[] = [];
  let start = from;
  for (let slash = path.indexOf('/', start); slash !== -1; slash = path.indexOf('/', start)) {
    segments.push(path.slice(start, slash));
    start = slash + 1;
  }
  segments.push(path.slice(start));
  return segments;
}
