/**
 * Every package's tarball is fit to publish (issue 22 item 6): `npm pack --dry-run --json` of each
 * workspace holds only its runtime `dist` (JavaScript, declarations, maps), the sources those maps
 * point at, README.md, LICENSE and package.json: no spec, no test harness of the server, no build
 * info, and no source map whose source is missing.
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const ALLOWED = /^(package\.json|README\.md|LICENSE|dist\/.+\.(js|d\.ts|js\.map|d\.ts\.map)|src\/.+\.ts)$/;
const FORBIDDEN = /\.spec\.|tsbuildinfo|^(dist|src)\/(e2e)\//;

interface Packed {
  readonly name: string;
  readonly entryCount: number;
  readonly files: ReadonlyArray<{ readonly path: string }>;
}

describe('Package tarballs (npm pack --dry-run)', () => {
  let packed: Packed[];
  before(function () {
    this.timeout(60_000);
    const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--workspaces'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    packed = JSON.parse(output) as Packed[];
  });

  it('packs every workspace', () => {
    const workspaces = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;
    expect(packed.map((p) => p.name)).to.have.length(workspaces.length);
  });

  it('holds only runtime files, sources, README.md, LICENSE and package.json', () => {
    for (const { name, files } of packed) {
      const paths = files.map((f) => f.path);
      expect(paths.filter((path) => !ALLOWED.test(path) || FORBIDDEN.test(path)), name).to.deep.equal([]);
      expect(paths, name).to.include.members(['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts']);
    }
    const server = packed.find((p) => p.name === '@cms/server')!.files.map((f) => f.path);
    expect(server.filter((path) => path.startsWith('dist/testing/'))).to.deep.equal([]);
  });

  it('ships the source of every source map', () => {
    for (const { name, files } of packed) {
      const paths = new Set(files.map((f) => f.path));
      const folder = join(ROOT, 'packages', name.replace('@cms/', ''));
      const missing: string[] = [];
      for (const map of [...paths].filter((path) => path.endsWith('.map'))) {
        const { sources } = JSON.parse(readFileSync(join(folder, map), 'utf8')) as { sources: string[] };
        for (const source of sources) {
          const resolved = normalize(join(dirname(map), source));
          if (!paths.has(resolved)) missing.push(`${map} → ${resolved}`);
        }
      }
      expect(missing, name).to.deep.equal([]);
    }
  });

  it('declares optional peers with a boolean', () => {
    for (const { name } of packed) {
      const manifest = JSON.parse(readFileSync(join(ROOT, 'packages', name.replace('@cms/', ''), 'package.json'), 'utf8')) as { peerDependenciesMeta?: Record<string, { optional?: unknown }> };
      for (const [peer, meta] of Object.entries(manifest.peerDependenciesMeta ?? {})) expect(meta.optional, `${name} ${peer}`).to.be.a('boolean');
    }
  });
});
