/**
 * The README's promise end to end (decision 0779): a bad setting stops the built service before
 * it listens, with one line naming the variable and no stack trace; a log file that fails once
 * the service runs is reported and the service goes on serving.
 */
import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { startBuiltService } from '../testing/built-service.js';

/** Starts the built service with `env` and expects it to stop by itself: its exit code and standard error. */
async function refused(env: Record<string, string>): Promise<{ exitCode: number | null; stderr: string }> {
  const service = await startBuiltService(env);
  if (service.origin !== undefined) {
    await service.stop();
    expect.fail(`the service listened on ${service.origin}:\n${service.stderr()}`);
  }
  return { exitCode: await service.exited, stderr: service.stderr() };
}

describe('Start-up with a bad setting (built service)', function () {
  this.timeout(30_000);

  const cases: Array<[string, Record<string, string>, RegExp]> = [
    [
      'a log file in a directory that does not exist',
      { CMS_LOG_FILE: '/nonexistent/dir/x.log' },
      /^CMS_LOG_FILE cannot be opened for appending: \/nonexistent\/dir\/x\.log \(ENOENT: no such file or directory\)$/,
    ],
    ['a log file that is a directory', { CMS_LOG_FILE: tmpdir() }, /^CMS_LOG_FILE cannot be opened for appending: .* \(EISDIR: /],
    ['HOST=999.1.1.1', { HOST: '999.1.1.1' }, /^HOST must be an IP address or a host name .*\(got "999\.1\.1\.1"\)$/],
    ['a HOST that does not resolve', { HOST: 'no-such-host.invalid' }, /^HOST no-such-host\.invalid does not resolve to an address to listen on \(getaddrinfo /],
    ['MONGODB_URI=notamongo', { MONGODB_URI: 'notamongo' }, /^MONGODB_URI must be a connection string .*: Invalid scheme/],
    ['MONGODB_URI=mongodb://', { MONGODB_URI: 'mongodb://' }, /^MONGODB_URI must be a connection string .*: Protocol and host list are required/],
    ['a MONGODB_URI with an unknown option', { MONGODB_URI: 'mongodb://127.0.0.1:9/cms?noSuchOption=1' }, /^MONGODB_URI .*: option nosuchoption is not supported$/],
    // Port 9 (discard) has no MongoDB: a check made only when connecting would wait 30 s for one.
    // Whitespace only is a value gone missing in a template: bearer tokens used to go off, the embedded store to be picked.
    ['CMS_JWT_SECRET of spaces', { CMS_JWT_SECRET: '   ' }, /^CMS_JWT_SECRET is only whitespace: give it a value, or set it empty \(or unset it\) to leave it unset$/],
    ['MONGODB_URI of spaces', { MONGODB_URI: '   ' }, /^MONGODB_URI is only whitespace: /],
    [
      'a private key as CMS_JWT_PUBLIC_KEY',
      { CMS_JWT_PUBLIC_KEY: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() },
      /^CMS_JWT_PUBLIC_KEY holds a private key \(PRIVATE KEY\); a public key \(SPKI PEM, -----BEGIN PUBLIC KEY-----\) is expected: /,
    ],
    [
      'one CMS_API_KEYS key for two tenants',
      { CMS_API_KEYS: 'same-key-0000000000:acme,same-key-0000000000:beta' },
      /^CMS_API_KEYS gives one key to two tenants \(entries 1 and 2\); a key belongs to one tenant$/,
    ],
    ['MONGODB_DB=bad.name', { MONGODB_URI: 'mongodb://127.0.0.1:9', MONGODB_DB: 'bad.name' }, /^MONGODB_DB contains '\.' \(got "bad\.name"\); a MongoDB database name has/],
  ];
  for (const [what, env, message] of cases) {
    it(`refuses ${what} before listening, in one line naming the variable`, async () => {
      const { exitCode, stderr } = await refused(env);
      expect(exitCode, stderr).to.equal(1);
      expect(stderr.trimEnd().split('\n'), stderr).to.have.length(1);
      expect(stderr.replace(/^Configuration error: /, '').trimEnd()).to.match(message);
      expect(stderr).to.match(/^Configuration error: /);
    });
  }

  it('names MONGODB_URI without showing its password', async () => {
    const { exitCode, stderr } = await refused({ MONGODB_URI: 'mongodb://admin:hunter2-pw@db.local:abc/cms' });
    expect(exitCode).to.equal(1);
    expect(stderr).to.equal('Configuration error: MONGODB_URI must be a connection string such as mongodb://host:27017/cms: Unable to parse db.local:abc with URL\n');
  });

  describe('when PORT is taken', () => {
    let taken: Server;
    before(async () => {
      taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    });
    after(() => new Promise<void>((resolve) => taken.close(() => resolve())));

    it('names PORT, in one line', async () => {
      const port = (taken.address() as { port: number }).port;
      const { exitCode, stderr } = await refused({ PORT: String(port) });
      expect(exitCode).to.equal(1);
      expect(stderr).to.equal(`Configuration error: PORT ${port} is already in use on 127.0.0.1 (listen EADDRINUSE: address already in use 127.0.0.1:${port})\n`);
    });
  });
});

describe('A log file that fails once the service runs (built service)', function () {
  this.timeout(30_000);
  // Every write to /dev/full fails with ENOSPC: a disk that filled up after the file was opened.
  before(function () {
    if (!existsSync('/dev/full')) this.skip();
  });

  it('is reported once on standard error, and the service goes on serving and stops cleanly', async () => {
    const service = await startBuiltService({ CMS_LOG_FILE: '/dev/full', CMS_REQUEST_LOG: 'on' });
    try {
      expect(service.origin, service.stderr()).to.be.a('string');
      for (let request = 0; request < 4; request += 1) {
        expect((await fetch(`${service.origin}/healthz`)).status).to.equal(200);
        // Longer than the log writer's batch interval (50 ms): each request's line is its own write.
        await new Promise((resolve) => setTimeout(resolve, 120));
      }
    } finally {
      expect(await service.stop(), service.stderr()).to.equal(0);
    }
    const reports = service.stderr().split('\n').filter((line) => line.includes('/dev/full'));
    expect(reports).to.deep.equal(['CMS_LOG_FILE: writing /dev/full failed (ENOSPC: no space left on device); log lines go to standard output from now on']);
    expect(service.stderr()).not.to.match(/^\s+at /m);
  });
});

describe('A signal while the built service is still starting', function () {
  this.timeout(30_000);

  it('stops it at once with exit 0, as PID 1 in a container needs, instead of waiting for MongoDB', async () => {
    const main = fileURLToPath(new URL('../main.js', import.meta.url));
    // Nothing answers on port 9: the driver would keep looking for a server for 15 s.
    const child = spawn(process.execPath, [main], {
      env: { ...process.env, PORT: '0', MONGODB_URI: 'mongodb://127.0.0.1:9/cms?serverSelectionTimeoutMS=15000' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = once(child, 'exit');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const signalled = performance.now();
    child.kill('SIGTERM');
    const [code] = await exited;
    expect(performance.now() - signalled, 'stopped at once').to.be.below(3000);
    expect(code).to.equal(0);
    expect(stderr).to.contain('SIGTERM received during start-up: stopping');
  });
});
