/** `npm run token`: the README's way to mint a development bearer token, accepted by the service. */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startTestService, TEST_JWT_SECRET } from '../testing/test-service.js';

const SCRIPT = fileURLToPath(new URL('../../../../scripts/token.mjs', import.meta.url));

function token(args: string[], env: Record<string, string | undefined>): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'CMS_JWT_SECRET'));
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { env: { ...base, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe('scripts/token.mjs (npm run token)', () => {
  it('prints a token alone on stdout that the service accepts with the role asked for', async () => {
    const minted = await token(['--role', 'editor', '--tenant', 'tenant-a'], { CMS_JWT_SECRET: TEST_JWT_SECRET });
    expect(minted.code, minted.stderr).to.equal(0);
    expect(minted.stdout).to.match(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    const api = await startTestService();
    try {
      const res = await api.call('POST', '/authors/create', { headers: { authorization: `Bearer ${minted.stdout.trim()}` }, body: { name: 'Ada' } });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    } finally {
      await api.stop();
    }
  });

  it('answers --help with its usage on stdout and exit 0, needing no secret', async () => {
    for (const flag of ['--help', '-h']) {
      const help = await token([flag], {});
      expect([help.code, help.stderr], flag).to.deep.equal([0, '']);
      expect(help.stdout, flag).to.match(/^usage: npm run --silent token -- --role editor/);
      expect(help.stdout, flag).to.include('--role admin|editor|author|member');
    }
  });

  it('says clearly that CMS_JWT_SECRET is missing, or too short, and exits 2', async () => {
    const missing = await token(['--role', 'editor'], {});
    expect(missing.code).to.equal(2);
    expect(missing.stdout).to.equal('');
    expect(missing.stderr).to.contain('CMS_JWT_SECRET is not set in this shell');
    // A fresh random secret makes tokens the running service refuses (401): the hint offers one
    // only for a (re)start of the service, never as the way to get the secret it already has.
    for (const line of missing.stderr.split('\n').filter((text) => text.includes('openssl rand'))) {
      expect(line, 'a fresh secret is offered only with a restart').to.contain('npm start');
    }
    expect(missing.stderr).to.contain('a new one makes tokens the service refuses');
    const short = await token(['--role', 'editor'], { CMS_JWT_SECRET: 'short' });
    expect(short.code).to.equal(2);
    expect(short.stderr).to.contain('CMS_JWT_SECRET has 5 bytes; the service refuses secrets under 32');
  });

  it('refuses, exit 2 and no stack trace, an option or a secret that would make a token the service refuses', async () => {
    const cases: Array<[string[], Record<string, string>, string]> = [
      [['--expires', 'bad'], { CMS_JWT_SECRET: TEST_JWT_SECRET }, '--expires must be a positive time span'],
      [['--expires', '0'], { CMS_JWT_SECRET: TEST_JWT_SECRET }, '--expires must be a positive time span'],
      [['--sub', 'user#1'], { CMS_JWT_SECRET: TEST_JWT_SECRET }, '--sub must be 1-128 letters'],
      [['--tenant', 'Other'], { CMS_JWT_SECRET: TEST_JWT_SECRET }, '--tenant must be a tenant id'],
      [[], { CMS_JWT_SECRET: ' '.repeat(40) }, 'CMS_JWT_SECRET holds only blanks'],
    ];
    for (const [args, env, message] of cases) {
      const res = await token(args, env);
      expect([res.code, res.stdout], args.join(' ')).to.deep.equal([2, '']);
      expect(res.stderr, args.join(' ')).to.contain(message).and.not.contain('    at ');
    }
  });

  it('refuses a role the service does not know', async () => {
    const res = await token(['--role', 'root'], { CMS_JWT_SECRET: TEST_JWT_SECRET });
    expect(res.code).to.equal(2);
    expect(res.stderr).to.contain('--role must be one of admin, editor, author, member');
  });
});
