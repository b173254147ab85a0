import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Collections, createMongoRepositories, ensureIndexes } from '@cms/adapter-mongo';
import { MingoDatabaseDouble } from '@cms/adapter-mongo/testing';
import { AuthenticateApiKey, ManualClock } from '@cms/core';
import { hashApiKey } from '@cms/core/internal';
import { keyFragmentsIn } from '@cms/core/testing';
import { ObjectId } from 'mongodb';
import { AdminExit, runAdmin, type OpenAdminStorage } from './run-admin.js';

describe('cms-admin', () => {
  const MONGO_ENV = { MONGODB_URI: 'mongodb://db.test:27017/cms_admin_test' };
  let db: MingoDatabaseDouble;
  let opened: Array<{ uri: string; database: string }>;
  let closed: number;
  const openStorage: OpenAdminStorage = async (target) => {
    opened.push({ ...target });
    const { tenants, apiKeys, aiUsage } = createMongoRepositories(db);
    return { tenants, apiKeys, aiUsage, close: async () => void (closed += 1) };
  };
  beforeEach(async () => {
    db = new MingoDatabaseDouble();
    await ensureIndexes(db);
    opened = [];
    closed = 0;
  });

  /** Runs one command line and captures what it prints. */
  const admin = async (line: string[], env: Record<string, string> = MONGO_ENV) => {
    let stdout = '';
    let stderr = '';
    const io = { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) } };
    const code = await runAdmin(line, env, io, openStorage, new ManualClock('2026-03-04T05:06:07.089Z'));
    return { code, stdout, stderr };
  };
  const repos = () => createMongoRepositories(db);

  describe('when generating a secret', () => {
    it('prints a fresh base64 secret of 48 random bytes alone on stdout, without MONGODB_URI or a store', async () => {
      const first = await admin(['secret', 'generate'], {});
      const second = await admin(['secret', 'generate'], {});
      expect(first.code).to.equal(AdminExit.ok);
      expect(first.stderr).to.equal('');
      expect(first.stdout).to.match(/^[A-Za-z0-9+/]{64}\n$/);
      expect(Buffer.from(first.stdout.trim(), 'base64')).to.have.length(48);
      expect(second.stdout).not.to.equal(first.stdout);
      expect(opened).to.deep.equal([]);
    });

    it('lists the command in the usage text', async () => {
      expect((await admin(['help'], {})).stdout).to.contain('secret generate');
    });
  });

  describe('when MONGODB_URI is not set', () => {
    it('exits 2 with a message saying it needs MongoDB, and opens nothing', async () => {
      const result = await admin(['tenant', 'create', 'acme'], {});
      expect(result.code).to.equal(AdminExit.usage);
      expect(result.stdout).to.equal('');
      expect(result.stderr).to.match(/^cms-admin: MONGODB_URI is not set\. cms-admin works on MongoDB only/);
      expect(opened).to.deep.equal([]);
    });

    it('says so from the built executable too', async () => {
      const bin = fileURLToPath(new URL('./cms-admin.js', import.meta.url));
      const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('MONGODB_')));
      const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        execFile(process.execPath, [bin, 'apikey', 'list', 'acme'], { env }, (error, _stdout, stderr) =>
          resolve({ code: error ? (error.code as number) : 0, stderr }),
        );
      });
      expect(result.code).to.equal(2);
      expect(result.stderr).to.contain('cms-admin: MONGODB_URI is not set.');
    });
  });

  describe('when MONGODB_URI or MONGODB_DB is bad', () => {
    it('exits 2 with one line naming the variable, and opens nothing', async () => {
      const uri = await admin(['apikey', 'list', 'acme'], { MONGODB_URI: 'mongodb://admin:hunter2@db.test:abc/cms' });
      expect(uri).to.deep.equal({
        code: AdminExit.usage,
        stdout: '',
        stderr: 'cms-admin: MONGODB_URI must be a connection string such as mongodb://host:27017/cms: Unable to parse db.test:abc with URL\n',
      });
      const db = await admin(['apikey', 'list', 'acme'], { ...MONGO_ENV, MONGODB_URI: 'mongodb://db.test', MONGODB_DB: 'cms.admin' });
      expect(db.code).to.equal(AdminExit.usage);
      expect(db.stderr).to.match(/^cms-admin: MONGODB_DB contains '\.' \(got "cms\.admin"\)/);
      expect(opened).to.deep.equal([]);
    });
  });

  describe('when creating tenants', () => {
    it('creates the tenant in the database named by the URI and closes the connection', async () => {
      const result = await admin(['tenant', 'create', 'acme', '--name', 'Acme Ltd']);
      expect(result).to.deep.equal({ code: 0, stdout: 'Tenant acme created (name "Acme Ltd")\n', stderr: '' });
      expect(opened).to.deep.equal([{ uri: MONGO_ENV.MONGODB_URI, database: 'cms_admin_test' }]);
      expect(closed).to.equal(1);
      expect(await repos().tenants.findById('acme')).to.deep.include({ name: 'Acme Ltd', createdAt: new Date('2026-03-04T05:06:07.089Z') });
    });

    it('exits 1 for a taken tenant id and still closes the connection; 2 for a malformed one, found before anything is opened', async () => {
      await admin(['tenant', 'create', 'acme']);
      const taken = await admin(['tenant', 'create', 'acme']);
      expect(taken).to.deep.equal({ code: AdminExit.failed, stdout: '', stderr: 'cms-admin: Tenant acme already exists\n' });
      expect(closed).to.equal(2);
      for (const line of [['tenant', 'create', 'Not Valid'], ['apikey', 'list', 'BAD_ID'], ['tenant', 'set-ai-limit', 'Acme', '10']]) {
        const malformed = await admin(line);
        expect(malformed.code, line.join(' ')).to.equal(AdminExit.usage);
        expect(malformed.stderr.split('\n')[0], line.join(' ')).to.equal('cms-admin: tenantId must be 1 to 64 lowercase letters, digits and hyphens, starting with a letter or digit');
      }
      expect([opened.length, closed]).to.deep.equal([2, 2]);
      const badName = await admin(['tenant', 'create', 'beta', '--name', '   ']);
      expect([badName.code, badName.stderr]).to.deep.equal([AdminExit.usage, 'cms-admin: name must be 1 to 100 characters, not blank, without control characters such as line breaks\n']);
    });
  });

  describe('when managing API keys', () => {
    it('prints a new key once, on standard output alone, and the key authenticates to the tenant', async () => {
      await admin(['tenant', 'create', 'acme']);
      const created = await admin(['apikey', 'create', 'acme', '--name', 'web front end']);
      expect(created.code).to.equal(0);
      expect(created.stdout).to.match(/^cms_[A-Za-z0-9_-]{43}\n$/);
      const key = created.stdout.trim();
      const [record] = await repos().apiKeys.listByTenant('acme');
      const fingerprint = `sha256:${hashApiKey(key).slice(0, 8)}`;
      expect(created.stderr).to.equal(`API key ${record!.id} (${fingerprint}, "web front end") created for tenant acme. It is shown once: store it now.\n`);
      expect(await new AuthenticateApiKey(repos().apiKeys).execute(key)).to.deep.equal({ tenantId: 'acme', keyId: record!.id });
      const listed = await admin(['apikey', 'list', 'acme']);
      expect(listed.stdout).to.contain(fingerprint);
      expect(keyFragmentsIn(listed.stdout + created.stderr, key)).to.deep.equal([]);
      expect(keyFragmentsIn(JSON.stringify(db.collectionDouble(Collections.apiKeys).documents()), key)).to.deep.equal([]);
    });

    it('lists keys with id, fingerprint, creation time, state and name', async () => {
      await admin(['tenant', 'create', 'acme']);
      await admin(['apikey', 'create', 'acme', '--name', 'first']);
      await admin(['apikey', 'create', 'acme']);
      const [first, second] = await repos().apiKeys.listByTenant('acme');
      await admin(['apikey', 'revoke', first!.id]);
      const listed = await admin(['apikey', 'list', 'acme']);
      expect(listed.code).to.equal(0);
      expect(listed.stdout).to.equal(
        `${first!.id}  sha256:${first!.hash.slice(0, 8)}  created 2026-03-04T05:06:07.089Z  revoked 2026-03-04T05:06:07.089Z  first\n` +
          `${second!.id}  sha256:${second!.hash.slice(0, 8)}  created 2026-03-04T05:06:07.089Z  active  default\n`,
      );
    });

    it('lists a key stored with its first characters in clear by its fingerprint, without them', async () => {
      await admin(['tenant', 'create', 'acme']);
      const key = 'cms_Qx7Lr2Mv9Kp4Wz8Ns3Ty6Hb1Jd5Gf0Ce';
      const _id = new ObjectId('65f1c0ffee0123456789abcd');
      const createdAt = new Date('2025-06-07T08:09:10.111Z');
      // The layout of a version before decision 0789.
      const legacy = { _id, tenantId: 'acme', name: 'web', hash: hashApiKey(key), prefix: key.slice(0, 10), createdAt, revokedAt: null };
      await db.collectionDouble(Collections.apiKeys).insertOne(legacy);
      const listed = await admin(['apikey', 'list', 'acme']);
      expect(listed.stdout).to.equal(`65f1c0ffee0123456789abcd  sha256:${hashApiKey(key).slice(0, 8)}  created 2025-06-07T08:09:10.111Z  active  web\n`);
      expect(keyFragmentsIn(listed.stdout, key)).to.deep.equal([]);
      expect(await new AuthenticateApiKey(repos().apiKeys).execute(key)).to.deep.equal({ tenantId: 'acme', keyId: _id.toHexString() });
    });

    it('says when a tenant has no keys, and exits 1 for an unknown tenant', async () => {
      await admin(['tenant', 'create', 'acme']);
      expect((await admin(['apikey', 'list', 'acme'])).stdout).to.equal('Tenant acme has no API keys\n');
      expect(await admin(['apikey', 'list', 'ghost'])).to.deep.equal({ code: 1, stdout: '', stderr: 'cms-admin: Tenant ghost not found\n' });
      expect((await admin(['apikey', 'create', 'ghost'])).stderr).to.equal('cms-admin: Tenant ghost not found\n');
    });

    it('revokes a key so it no longer authenticates; an unknown key id exits 1', async () => {
      await admin(['tenant', 'create', 'acme']);
      const key = (await admin(['apikey', 'create', 'acme'])).stdout.trim();
      const [record] = await repos().apiKeys.listByTenant('acme');
      const revoked = await admin(['apikey', 'revoke', record!.id.toUpperCase()]);
      expect(revoked).to.deep.equal({ code: 0, stdout: `API key ${record!.id} revoked\n`, stderr: '' });
      const refused = await new AuthenticateApiKey(repos().apiKeys).execute(key).catch((e: { code: string }) => e.code);
      expect(refused).to.equal('UNAUTHORIZED');
      const unknown = await admin(['apikey', 'revoke', 'ffffffffffffffffffffffff']);
      expect(unknown).to.deep.equal({ code: 1, stdout: '', stderr: 'cms-admin: API key ffffffffffffffffffffffff not found\n' });
    });
  });

  describe('when setting tenant options', () => {
    it('sets and clears the admin e-mail addresses', async () => {
      await admin(['tenant', 'create', 'acme']);
      const set = await admin(['tenant', 'set-admin-emails', 'acme', 'a@acme.test, b@acme.test,a@acme.test']);
      expect(set.stdout).to.equal('Tenant acme admin e-mail addresses: a@acme.test, b@acme.test\n');
      expect((await repos().tenants.findById('acme'))?.adminEmails).to.deep.equal(['a@acme.test', 'b@acme.test']);
      expect((await admin(['tenant', 'set-admin-emails', 'acme', ''])).stdout).to.equal('Tenant acme admin e-mail addresses: none\n');
      expect((await repos().tenants.findById('acme'))?.adminEmails).to.deep.equal([]);
      const bad = await admin(['tenant', 'set-admin-emails', 'acme', 'not-an-address']);
      expect(bad).to.deep.equal({ code: AdminExit.usage, stdout: '', stderr: 'cms-admin: emails has an invalid address "not-an-address"\n' });
    });

    it('sets the AI token limit and puts it back to the default', async () => {
      await admin(['tenant', 'create', 'acme']);
      expect((await admin(['tenant', 'set-ai-limit', 'acme', '250000'])).stdout).to.equal('Tenant acme monthly AI token limit: 250000\n');
      expect((await repos().tenants.findById('acme'))?.aiTokenLimitMonthly).to.equal(250000);
      const reset = await admin(['tenant', 'set-ai-limit', 'acme', 'default']);
      expect(reset.stdout).to.equal('Tenant acme monthly AI token limit: the service default (AI_TOKEN_LIMIT_MONTHLY)\n');
      expect((await repos().tenants.findById('acme'))?.aiTokenLimitMonthly).to.equal(null);
      expect(await admin(['tenant', 'set-ai-limit', 'ghost', '5'])).to.deep.equal({ code: 1, stdout: '', stderr: 'cms-admin: Tenant ghost not found\n' });
    });

    it('shows the AI usage of this month or a given one, against the limit that applies', async () => {
      await admin(['tenant', 'create', 'acme']);
      await repos().aiUsage.add('acme', '2026-03', 1200);
      await repos().aiUsage.add('acme', '2026-02', 99_000);
      const env = { ...MONGO_ENV, AI_TOKEN_LIMIT_MONTHLY: '5000' };
      expect((await admin(['tenant', 'ai-usage', 'acme'], env)).stdout).to.equal(
        'Tenant acme AI tokens in 2026-03: used 1200 of 5000, remaining 3800\n',
      );
      await admin(['tenant', 'set-ai-limit', 'acme', '1000']);
      expect((await admin(['tenant', 'ai-usage', 'acme', '--month', '2026-02'], env)).stdout).to.equal(
        'Tenant acme AI tokens in 2026-02: used 99000 of 1000, remaining 0\n',
      );
      const bad = await admin(['tenant', 'ai-usage', 'acme', '--month', '2026-13']);
      expect([bad.code, bad.stderr.split('\n')[0]]).to.deep.equal([AdminExit.usage, 'cms-admin: --month must be a month such as 2026-01']);
      expect((await admin(['tenant', 'ai-usage', 'ghost'])).stderr).to.equal('cms-admin: Tenant ghost not found\n');
      expect((await admin(['apikey', 'list', 'acme', '--month', '2026-01'])).code).to.equal(AdminExit.usage);
    });

    it('reads AI_TOKEN_LIMIT_MONTHLY for the usage report only: a bad one blocks no other command, and that one exits as a usage error', async () => {
      const env = { ...MONGO_ENV, AI_TOKEN_LIMIT_MONTHLY: '-1' };
      expect((await admin(['tenant', 'create', 'acme'], env)).code).to.equal(AdminExit.ok);
      expect((await admin(['apikey', 'create', 'acme'], env)).code).to.equal(AdminExit.ok);
      const report = await admin(['tenant', 'ai-usage', 'acme'], env);
      expect([report.code, report.stderr]).to.deep.equal([AdminExit.usage, 'cms-admin: AI_TOKEN_LIMIT_MONTHLY must be a whole number from 0 to 9007199254740991 (got "-1")\n']);
    });
  });

  describe('when the command line is wrong', () => {
    const cases: Array<[string, string[], string]> = [
      ['no command', [], 'cms-admin: no command given'],
      ['an unknown command', ['tenant', 'delete', 'acme'], 'cms-admin: unknown command "tenant delete"'],
      ['a command named after an Object.prototype member', ['constructor'], 'cms-admin: unknown command "constructor"'],
      ['a missing argument', ['apikey', 'revoke'], 'cms-admin: expected: cms-admin apikey revoke <keyId>'],
      ['an extra argument', ['tenant', 'create', 'a', 'b'], 'cms-admin: expected: cms-admin tenant create <tenantId> [--name <name>]'],
      ['an unknown option', ['tenant', 'create', 'acme', '--colour', 'red'], "cms-admin: Unknown option '--colour'"],
      ['--name where it does not apply', ['apikey', 'list', 'acme', '--name', 'x'], 'cms-admin: --name does not apply to "apikey list"'],
      ['a limit that is not a number', ['tenant', 'set-ai-limit', 'acme', 'lots'], 'cms-admin: the limit must be a whole number of tokens from 0 to 9007199254740991, or "default"'],
      ['a limit past the largest whole number', ['tenant', 'set-ai-limit', 'acme', '9007199254740992'], 'cms-admin: the limit must be a whole number of tokens from 0 to 9007199254740991, or "default"'],
    ];
    for (const [name, line, message] of cases) {
      it(`exits 2 for ${name}, with the usage`, async () => {
        const result = await admin(line);
        expect(result.code).to.equal(AdminExit.usage);
        expect(result.stderr.split('\n')[0]).to.contain(message);
        expect(result.stderr).to.contain('Usage: cms-admin <command>');
        expect(opened, 'found before the database is opened').to.deep.equal([]);
      });
    }

    it('prints the usage on standard output for --help, without MONGODB_URI', async () => {
      const help = await admin(['--help'], {});
      expect(help.code).to.equal(0);
      expect(help.stdout).to.contain('  apikey create <tenantId> [--name <name>]\n');
      expect(help.stdout).to.contain('  tenant set-ai-limit <tenantId> <tokens|default>\n');
    });
  });

  describe('when the database cannot be reached', () => {
    it('exits 1 with the reason', async () => {
      let message = '';
      const io = { stdout: { write: () => true }, stderr: { write: (text: string) => (message += text) } };
      const result = await runAdmin(['apikey', 'list', 'acme'], MONGO_ENV, io, async () => {
        throw new Error('Cannot connect to MongoDB (database cms_admin_test): connect ECONNREFUSED');
      });
      expect(result).to.equal(AdminExit.failed);
      expect(message).to.equal('cms-admin: failed: Cannot connect to MongoDB (database cms_admin_test): connect ECONNREFUSED\n');
    });
  });
});
