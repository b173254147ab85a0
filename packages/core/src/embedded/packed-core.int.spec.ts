/**
 * `@cms/core` as another service installs it (issue 22 items 4 and 7): `npm pack` of the core,
 * unpacked into `node_modules/@cms/core` of a temporary project with no workspace around it and
 * no chai (core has no dependencies, so this is what `npm install <tarball>` leaves). There:
 * - `@cms/core/testing` imports with nothing beyond core; `@cms/core/testing/contracts` names
 *   chai, its optional peer, as the one thing missing;
 * - a tiny consumer type-checks under moduleResolution node16, nodenext, bundler and node10;
 * - examples/embed-core runs to completion.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
const CORE = join(ROOT, 'packages', 'core');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(command, args, { cwd, timeout: 25_000, env: { ...process.env, NODE_OPTIONS: '' } }, (_error, stdout, stderr) =>
      resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

const node = (cwd: string, ...args: string[]) => run(process.execPath, args, cwd);

/** Imports the given ESM source in the consumer project, printing what it logs. */
const evaluate = (cwd: string, source: string) => node(cwd, '--input-type=module', '--eval', source);

const CONSUMER_TS = `import { createCore, StaticCaptchaVerifier, type Caller, type DomainError } from '@cms/core';
import { domainErrorOf, userCaller } from '@cms/core/testing';
import type { RepositoryFactory } from '@cms/core/testing/contracts';
import type { SnapshotTable } from '@cms/core/snapshots';

export const core = createCore({ captcha: new StaticCaptchaVerifier(new Map()) });
export const editor: Caller = userCaller('acme', 'ed-1', 'editor');
export const refusal: (promise: Promise<unknown>) => Promise<DomainError> = domainErrorOf;
export type Factories = RepositoryFactory<SnapshotTable<{ id: string }>>;
// @ts-expect-error the CAPTCHA verifier is required: proves the declarations were read, not \`any\`
createCore({});
`;

const RESOLUTIONS = {
  node16: { module: 'node16', moduleResolution: 'node16' },
  nodenext: { module: 'nodenext', moduleResolution: 'nodenext' },
  bundler: { module: 'esnext', moduleResolution: 'bundler' },
  node10: { module: 'esnext', moduleResolution: 'node10', ignoreDeprecations: '6.0' },
} as const;

describe('@cms/core installed from its packed tarball', function () {
  this.timeout(30_000);
  let folder: string;
  let project: string;

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'cms-core-packed-'));
    const packed = await run('npm', ['pack', '--json', '--pack-destination', folder], CORE);
    expect(packed.code, packed.stderr).to.equal(0);
    const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
    project = join(folder, 'consumer');
    const installed = join(project, 'node_modules', '@cms', 'core');
    mkdirSync(installed, { recursive: true });
    const unpacked = await run('tar', ['-xzf', join(folder, filename), '-C', installed, '--strip-components=1'], folder);
    expect(unpacked.code, unpacked.stderr).to.equal(0);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  });

  after(() => rmSync(folder, { recursive: true, force: true }));

  it('is a project where chai cannot be found', async () => {
    const { code, stderr } = await evaluate(project, "await import('chai');");
    expect(code).to.equal(1);
    expect(stderr).to.contain('ERR_MODULE_NOT_FOUND');
  });

  it('imports @cms/core/testing with nothing beyond core, and its helpers work', async () => {
    const { code, stdout, stderr } = await evaluate(
      project,
      `import { userCaller, memoryEngagement, domainErrorOf } from '@cms/core/testing';
       const { createCategory } = memoryEngagement();
       const error = await domainErrorOf(createCategory.execute(userCaller('acme', 'm-1', 'member'), { name: 'News' }));
       console.log(error.code);`,
    );
    expect(stderr).to.equal('');
    expect(code).to.equal(0);
    expect(stdout.trim()).to.equal('FORBIDDEN');
  });

  it('refuses @cms/core/testing/contracts without chai, naming chai as what is missing', async () => {
    const { code, stderr } = await evaluate(project, "await import('@cms/core/testing/contracts');");
    expect(code).to.equal(1);
    expect(stderr).to.match(/Cannot find (package|module) 'chai'/);
  });

  for (const [name, options] of Object.entries(RESOLUTIONS)) {
    it(`type-checks a consumer of @cms/core, /testing, /testing/contracts and /snapshots under moduleResolution ${name}`, async () => {
      const dir = join(project, `tsc-${name}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'consumer.ts'), CONSUMER_TS);
      const compilerOptions = { ...options, target: 'es2022', lib: ['es2023'], types: [], strict: true, noEmit: true, skipLibCheck: false };
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));
      const { code, stdout } = await node(dir, TSC, '-p', 'tsconfig.json');
      expect(stdout).to.equal('');
      expect(code).to.equal(0);
    });
  }

  it('runs examples/embed-core there: a form, its notification, invalid forms, the guest rules and a webhook', async () => {
    cpSync(join(ROOT, 'examples', 'embed-core', 'main.mjs'), join(project, 'main.mjs'));
    const { code, stdout, stderr } = await node(project, 'main.mjs');
    expect(stderr).to.equal('');
    expect(code).to.equal(0);
    expect(stdout).to.contain('notification mailed').and.contain('invalid forms refused by the core');
    expect(stdout).to.contain('guest rules hold: no token').and.contain('signature verified');
  });
});
