import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { layeringViolations, packageOf, readManifests, readSourceFiles, type SourceFile } from '../testing/import-graph.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const rootManifest = JSON.parse(readFileSync(new URL('package.json', `file://${root}`), 'utf8'));
const testLibraries = new Set(Object.keys(rootManifest.devDependencies ?? {}));

describe('Layering, read from the import graph of the sources', () => {
  it('holds in this repository: core on node: only, adapters apart, inversify only in server, dependencies declared', () => {
    const files = readSourceFiles(root);
    expect(files.filter((file) => file.pkg === 'core').length, 'core files read').to.be.greaterThan(100);
    expect(new Set(files.map((file) => file.pkg))).to.include.keys('core', 'adapter-koa', 'adapter-mongo', 'server');
    expect(layeringViolations(files, readManifests(root), testLibraries)).to.deep.equal([]);
  });

  describe('when a file breaks a rule', () => {
    const manifests = [
      { pkg: 'core', allowed: new Set(['chai']) },
      { pkg: 'adapter-koa', allowed: new Set(['@cms/core', 'koa']) },
      { pkg: 'adapter-mongo', allowed: new Set(['@cms/core', 'mongodb']) },
      { pkg: 'server', allowed: new Set(['inversify', '@cms/core']) },
    ];
    const check = (file: SourceFile) => layeringViolations([file], manifests, testLibraries);

    it('reports core importing a framework, even as a type or a dynamic import, and core code importing its testing helpers', () => {
      expect(check({ pkg: 'core', path: 'packages/core/src/a.ts', imports: ['koa', 'node:fs', './b.js'] })).to.have.length(1);
      expect(check({ pkg: 'core', path: 'packages/core/src/testing/x.ts', imports: ['chai', 'mongodb'] })).to.deep.equal([
        'packages/core/src/testing/x.ts: imports mongodb (core imports only node: built-ins)',
      ]);
      expect(check({ pkg: 'core', path: 'packages/core/src/a.ts', imports: ['../testing/callers.js'] })).to.have.length(1);
      expect(check({ pkg: 'core', path: 'packages/core/src/a.spec.ts', imports: ['chai', 'sinon', '../testing/callers.js'] })).to.deep.equal([]);
    });

    it('reports an adapter importing another adapter, inversify outside server, and undeclared packages', () => {
      expect(check({ pkg: 'adapter-koa', path: 'packages/adapter-koa/src/x.ts', imports: ['@cms/adapter-mongo/testing'] })).to.have.length(2);
      expect(check({ pkg: 'adapter-koa', path: 'packages/adapter-koa/src/x.spec.ts', imports: ['inversify'] })).to.deep.equal([
        'packages/adapter-koa/src/x.spec.ts: imports inversify (only the server package imports inversify)',
      ]);
      expect(check({ pkg: 'adapter-mongo', path: 'packages/adapter-mongo/src/x.ts', imports: ['koa'] })).to.have.length(1);
      expect(check({ pkg: 'server', path: 'packages/server/src/x.ts', imports: ['inversify', '@cms/core', 'node:http'] })).to.deep.equal([]);
    });

    it('names packages by scope and name', () => {
      expect(packageOf('@koa/router/lib/layer')).to.equal('@koa/router');
      expect(packageOf('ajv/dist/2020.js')).to.equal('ajv');
    });
  });
});
