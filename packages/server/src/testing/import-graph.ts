/**
 * The repository's import graph, read from the TypeScript sources of every workspace package
 * (and `examples/`), and the layering rules it must obey. Hoisted `node_modules` make a wrong
 * import compile silently; this reads what each file really imports.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

export interface SourceFile {
  /** The package the file belongs to: `core`, `adapter-koa`, `examples/embed-core`, … */
  readonly pkg: string;
  /** Relative to the repository root, with `/`. */
  readonly path: string;
  /** Every module specifier it imports or re-exports, type-only and dynamic ones included. */
  readonly imports: readonly string[];
}

export interface PackageManifest {
  readonly pkg: string;
  /** `dependencies` and `peerDependencies`: what the package may import outside tests. */
  readonly allowed: ReadonlySet<string>;
}

const SOURCE = /\.(ts|mts|mjs|js)$/;
const SKIP = new Set(['node_modules', 'dist', 'generated']);

export function readSourceFiles(root: string): SourceFile[] {
  const files: SourceFile[] = [];
  for (const [pkg, dir] of packageDirs(root)) {
    const walk = (at: string) => {
      for (const entry of readdirSync(at, { withFileTypes: true })) {
        const full = join(at, entry.name);
        if (entry.isDirectory()) {
          if (!SKIP.has(entry.name)) walk(full);
        } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) {
          const imports = ts.preProcessFile(readFileSync(full, 'utf8'), true, true).importedFiles.map((file) => file.fileName);
          files.push({ pkg, path: relative(root, full).split(sep).join('/'), imports });
        }
      }
    };
    walk(dir);
  }
  return files;
}

export function readManifests(root: string): PackageManifest[] {
  return [...packageDirs(root)].map(([pkg, dir]) => {
    const home = pkg.startsWith('examples/') ? dir : join(dir, '..');
    const manifest = existsSync(join(home, 'package.json')) ? JSON.parse(readFileSync(join(home, 'package.json'), 'utf8')) : {};
    return { pkg, allowed: new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]) };
  });
}

/** `packages/<name>/src` as `<name>`, and each `examples/<name>` as `examples/<name>`. */
function packageDirs(root: string): Map<string, string> {
  const dirs = new Map<string, string>();
  for (const name of readdirSync(join(root, 'packages'))) {
    if (existsSync(join(root, 'packages', name, 'src'))) dirs.set(name, join(root, 'packages', name, 'src'));
  }
  if (existsSync(join(root, 'examples'))) {
    for (const name of readdirSync(join(root, 'examples'))) dirs.set(`examples/${name}`, join(root, 'examples', name));
  }
  return dirs;
}

/** The package a bare specifier names: `@koa/router/x` → `@koa/router`, `ajv/dist/x` → `ajv`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

const isRelative = (specifier: string) => specifier.startsWith('.');
const isBuiltin = (specifier: string) => specifier.startsWith('node:');
const isTestFile = (file: SourceFile) => /\.spec\.[mc]?[jt]s$/.test(file.path) || file.path.includes('/testing/');

/**
 * Every broken rule, as `file: imports x (rule)`:
 * - core imports nothing but `node:` built-ins and its own files; its `testing` helpers may also
 *   use its peer dependencies (`chai`, `fast-check`: optional, for tests only), its specs the
 *   repository's test libraries;
 * - core's own code never imports its `testing` helpers;
 * - an adapter never imports another adapter;
 * - only the server package imports inversify (or reflect-metadata);
 * - outside tests, a package imports only what its package.json declares (hoisting hides this).
 */
export function layeringViolations(files: readonly SourceFile[], manifests: readonly PackageManifest[], testLibraries: ReadonlySet<string>): string[] {
  const allowedBy = new Map(manifests.map((manifest) => [manifest.pkg, manifest.allowed]));
  const problems: string[] = [];
  for (const file of files) {
    const test = isTestFile(file);
    for (const specifier of file.imports) {
      const broken = (rule: string) => problems.push(`${file.path}: imports ${specifier} (${rule})`);
      if (isRelative(specifier)) {
        if (file.pkg === 'core' && !test && specifier.includes('/testing/')) broken('core code never imports its testing helpers');
        continue;
      }
      if (isBuiltin(specifier)) continue;
      const name = packageOf(specifier);
      if (file.pkg === 'core') {
        // Its testing helpers may use its (optional) peer dependencies: chai, fast-check.
        const mayUse = test ? (file.path.includes('.spec.') ? testLibraries : (allowedBy.get('core') ?? new Set<string>())) : new Set<string>();
        if (!mayUse.has(name)) broken('core imports only node: built-ins');
        continue;
      }
      if (file.pkg.startsWith('adapter-') && name.startsWith('@cms/adapter-') && name !== `@cms/${file.pkg}`) broken('adapters never import each other');
      if ((name === 'inversify' || name === 'reflect-metadata') && file.pkg !== 'server') broken('only the server package imports inversify');
      const declared = allowedBy.get(file.pkg) ?? new Set<string>();
      if (!test && !declared.has(name) && name !== `@cms/${file.pkg}`) broken('not declared in its package.json');
    }
  }
  return problems;
}
