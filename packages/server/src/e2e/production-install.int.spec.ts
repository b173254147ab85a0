/**
 * The Dockerfile's runtime stage, without Docker (images cannot be pulled here): the built tree
 * with `npm ci --omit=dev --omit=optional` in a folder of its own, then the service started from
 * it. A runtime import that lives in a devDependency fails here, not in production. npm prefers
 * its cache, which the `npm ci` before `npm test` filled. `--omit=optional` because chai, an
 * optional peer of @cms/core (for its testing entry), is otherwise kept as "devOptional".
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startBuiltService } from '../testing/built-service.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const run = promisify(execFile);

describe('Production install (npm ci --omit=dev --omit=optional of the built tree)', function () {
  this.timeout(180_000);
  let folder: string;
  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'cms-production-'));
    for (const file of ['package.json', 'package-lock.json']) cpSync(join(ROOT, file), join(folder, file));
    for (const name of readdirSync(join(ROOT, 'packages'))) {
      const source = join(ROOT, 'packages', name);
      if (!existsSync(join(source, 'package.json'))) continue;
      cpSync(join(source, 'package.json'), join(folder, 'packages', name, 'package.json'));
      if (existsSync(join(source, 'dist'))) cpSync(join(source, 'dist'), join(folder, 'packages', name, 'dist'), { recursive: true });
    }
    await run('npm', ['ci', '--omit=dev', '--omit=optional', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: folder, env: { ...process.env, NODE_ENV: 'production' } });
  });
  after(() => {
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('installs no devDependency', () => {
    for (const dev of ['typescript', 'mocha', 'chai', 'sinon', 'fast-check', 'autocannon', 'mingo']) {
      expect(existsSync(join(folder, 'node_modules', dev)), dev).to.equal(false);
    }
  });

  it('has the maintenance executables, cms-admin and cms-recount-reactions, which run from it', async () => {
    const bin = (name: string) => join(folder, 'node_modules', '.bin', name);
    const env = { PATH: process.env.PATH ?? '' }; // no MONGODB_URI: each says so and exits
    const admin = await run(bin('cms-admin'), ['--help'], { cwd: folder, env });
    expect(admin.stdout).to.include('cms-admin');
    const recount = await run(bin('cms-recount-reactions'), [], { cwd: folder, env }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? '' }),
    );
    expect(recount.code, recount.stderr).to.equal(2);
    expect(recount.stderr).to.include('MONGODB_URI');
  });

  it('starts the service from it, which answers /healthz and stops cleanly on SIGTERM', async () => {
    const service = await startBuiltService({ NODE_ENV: 'production', CAPTCHA_PROVIDER_DEFAULT: 'none' }, 20_000, join(folder, 'packages/server/dist/main.js'));
    expect(service.origin, service.stderr()).to.be.a('string');
    expect((await fetch(`${service.origin}/healthz`)).status).to.equal(200);
    // The image's HEALTHCHECK, as written in the Dockerfile, passes against it.
    const healthcheck = /HEALTHCHECK[^\n]*\\\n\s*CMD node -e "(.*)"\n/.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))?.[1];
    expect(healthcheck, 'the HEALTHCHECK line of the Dockerfile').to.be.a('string');
    const { port } = new URL(service.origin!);
    for (const host of ['0.0.0.0', '127.0.0.1']) await run(process.execPath, ['-e', healthcheck!], { env: { HOST: host, PORT: port } });
    expect(await service.stop()).to.equal(0);
    await run(process.execPath, ['-e', healthcheck!], { env: { HOST: '0.0.0.0', PORT: port } }).then(
      () => expect.fail('the HEALTHCHECK passed with the service stopped'),
      (error: { code?: number }) => expect(error.code).to.equal(1),
    );
  });
});
