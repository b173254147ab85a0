/**
 * The recount command on MongoDB storage, over the collection double handed in through the
 * storage opener (as cms-admin's tests do); the real opener and the script are run against an
 * unreachable server and without MONGODB_URI.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createMongoRepositories, ensureIndexes, type MongoRepositories } from '@cms/adapter-mongo';
import { MingoDatabaseDouble } from '@cms/adapter-mongo/testing';
import { ManageTenants, ManualClock } from '@cms/core';
import { ReactionLedger } from '@cms/core/internal';
import { articleRecord, commentRecord } from '@cms/core/testing';
import { openMongoRecountStorage, RecountExit, runRecountReactions, type OpenRecountStorage } from './recount-reactions.command.js';

describe('recount-reactions on MongoDB storage', () => {
  const MONGO_ENV = { MONGODB_URI: 'mongodb://db.test:27017/cms_recount_test' };
  const clock = new ManualClock('2026-04-01T00:00:00.000Z');
  let db: MingoDatabaseDouble;
  let repos: MongoRepositories;
  let opened: Array<{ uri: string; database: string }>;
  let closed: number;
  const openStorage: OpenRecountStorage = async (target) => {
    opened.push({ ...target });
    const { tenants, reactions, articles, comments } = createMongoRepositories(db);
    return { tenants, reactions, articles, comments, close: async () => void (closed += 1) };
  };
  beforeEach(async () => {
    db = new MingoDatabaseDouble();
    await ensureIndexes(db);
    repos = createMongoRepositories(db);
    opened = [];
    closed = 0;
  });

  /** Runs the command as the script would and captures its lines: `lines` on stdout, `errors` on stderr. */
  const recount = async (argv: string[] = [], env: Record<string, string> = MONGO_ENV, open: OpenRecountStorage = openStorage) => {
    const lines: string[] = [];
    const errors: string[] = [];
    const code = await runRecountReactions(env, argv, { stdout: (line) => void lines.push(line), stderr: (line) => void errors.push(line) }, open);
    return { code, lines, errors };
  };

  /** A tenant with an article liked by two users and a comment liked by one, totals in step. */
  const seed = async (tenantId: string) => {
    await new ManageTenants(repos.tenants, repos.apiKeys, clock).createTenant(tenantId, tenantId);
    const article = articleRecord(tenantId);
    const comment = commentRecord(tenantId, article.id, { status: 'approved' });
    await repos.articles.insert(article);
    await repos.comments.insert(comment);
    const onArticles = new ReactionLedger(repos.reactions, repos.articles, 'article', clock);
    const onComments = new ReactionLedger(repos.reactions, repos.comments, 'comment', clock);
    await onArticles.change(tenantId, article.id, 'user:u1', 'like');
    await onArticles.change(tenantId, article.id, 'user:u2', 'like');
    await onComments.change(tenantId, comment.id, 'guest:g1', 'dislike');
    return { tenantId, article: article.id, comment: comment.id };
  };
  /** Drift as a manual edit or a partial restore leaves it: totals moved without records, a record gone without its total. */
  const plantDrift = async (ids: { tenantId: string; article: string; comment: string }) => {
    await repos.articles.incrementTotals(ids.tenantId, ids.article, { likes: 4, dislikes: 1 });
    await repos.reactions.removeReaction({ tenantId: ids.tenantId, targetKind: 'comment', targetId: ids.comment, actor: 'guest:g1' });
  };
  const totalsOf = (target: { likes: number; dislikes: number } | null) => ({ likes: target?.likes, dislikes: target?.dislikes });

  describe('when the stored totals match the reaction records', () => {
    it('opens the database named by MONGODB_URI, reports no drift, exits 0 and closes it', async () => {
      await seed('acme');
      expect(await recount()).to.deep.equal({ code: RecountExit.ok, lines: ['checked 1 articles and 1 comments in 1 tenants: no drift'], errors: [] });
      expect(opened).to.deep.equal([{ uri: MONGO_ENV.MONGODB_URI, database: 'cms_recount_test' }]);
      expect(closed).to.equal(1);
    });

    it('uses MONGODB_DB when the URI names no database', async () => {
      await recount([], { MONGODB_URI: 'mongodb://db.test:27017', MONGODB_DB: 'cms_ops' });
      expect(opened).to.deep.equal([{ uri: 'mongodb://db.test:27017', database: 'cms_ops' }]);
    });
  });

  describe('when totals have drifted from the records', () => {
    it('reports each drifted article and comment and exits 1 without changing anything', async () => {
      const ids = await seed('acme');
      await plantDrift(ids);
      const result = await recount();
      expect(result.code).to.equal(RecountExit.drift);
      expect(result.lines).to.deep.equal([
        'checked 1 articles and 1 comments in 1 tenants: 2 with drift',
        `  acme article ${ids.article}: stored 6 likes / 1 dislikes, counted 2 / 0`,
        `  acme comment ${ids.comment}: stored 0 likes / 1 dislikes, counted 0 / 0`,
        'run again with --repair to fix',
      ]);
      expect(totalsOf(await repos.articles.findById('acme', ids.article))).to.deep.equal({ likes: 6, dislikes: 1 });
      expect(closed).to.equal(1);
    });

    it('with --repair adds the difference to the stored documents; a second run finds nothing', async () => {
      const ids = await seed('acme');
      await plantDrift(ids);
      const repaired = await recount(['--repair']);
      expect(repaired.code).to.equal(RecountExit.ok);
      expect(repaired.lines.at(-1)).to.equal('repaired 2 of 2');
      expect(totalsOf(await repos.articles.findById('acme', ids.article))).to.deep.equal({ likes: 2, dislikes: 0 });
      expect(totalsOf(await repos.comments.findById('acme', ids.comment))).to.deep.equal({ likes: 0, dislikes: 0 });
      expect(await recount()).to.deep.equal({ code: RecountExit.ok, lines: ['checked 1 articles and 1 comments in 1 tenants: no drift'], errors: [] });
    });

    it('with --tenant checks that tenant only, and refuses a tenant that does not exist', async () => {
      await seed('acme');
      await plantDrift(await seed('other'));
      expect(await recount(['--tenant', 'acme'])).to.deep.equal({
        code: RecountExit.ok,
        lines: ['checked 1 articles and 1 comments in 1 tenants: no drift'],
        errors: [],
      });
      expect((await recount()).lines[0]).to.equal('checked 2 articles and 2 comments in 2 tenants: 2 with drift');
      expect(await recount(['--tenant', 'acme-typo'])).to.deep.equal({ code: RecountExit.failed, lines: [], errors: ['Tenant acme-typo does not exist'] });
      expect(closed).to.equal(3);
    });

    it('pages through many targets in id order', async () => {
      await new ManageTenants(repos.tenants, repos.apiKeys, clock).createTenant('acme', 'Acme');
      const ids: string[] = [];
      for (let i = 0; i < 1203; i += 1) {
        const article = articleRecord('acme', { likes: i % 400 === 7 ? 1 : 0 });
        ids.push(article.id);
        await repos.articles.insert(article);
      }
      const result = await recount();
      expect(result.lines[0]).to.equal('checked 1203 articles and 0 comments in 1 tenants: 3 with drift');
      const drifted = ids.filter((_, i) => i % 400 === 7).sort();
      expect(result.lines.slice(1, 4).map((line) => line.split(' ')[4]!.replace(':', ''))).to.deep.equal(drifted);
    });
  });

  describe('when MONGODB_URI or MONGODB_DB is bad', () => {
    it('exits 2 with one line naming the variable, and opens nothing', async () => {
      expect(await recount([], { MONGODB_URI: 'mongodb://db.test:27017', MONGODB_DB: 'cms/ops' })).to.deep.equal({
        code: RecountExit.failed,
        lines: [],
        errors: [`Configuration error: MONGODB_DB contains '/' (got "cms/ops"); a MongoDB database name has 1 to 63 bytes and none of / \\ . " $, space or NUL`],
      });
      const uri = await recount([], { MONGODB_URI: 'mongodb://ops:pa55word@db.test/cms?noSuchOption=1' });
      expect(uri).to.deep.equal({ code: RecountExit.failed, lines: [], errors: ['Configuration error: MONGODB_URI must be a connection string such as mongodb://host:27017/cms: option nosuchoption is not supported'] });
      expect(opened).to.deep.equal([]);
    });
  });

  describe('when the store fails', () => {
    it('exits 2 and closes the store when it fails during the run', async () => {
      await seed('acme');
      const failing: OpenRecountStorage = async (target) => {
        const storage = await openStorage(target);
        return { ...storage, reactions: { ...storage.reactions, tally: async () => Promise.reject(new Error('connection reset')) } };
      };
      expect(await recount([], MONGO_ENV, failing)).to.deep.equal({ code: RecountExit.failed, lines: [], errors: ['recount-reactions failed: connection reset'] });
      expect(closed).to.equal(1);
    });

    it('exits 2 when the server cannot be reached, without showing the URI', async function () {
      this.timeout(10_000);
      const env = { MONGODB_URI: 'mongodb://ops:pa55word@127.0.0.1:9/cms_prod?serverSelectionTimeoutMS=200' };
      const { code, lines, errors } = await recount([], env, openMongoRecountStorage);
      expect(code).to.equal(RecountExit.failed);
      expect(lines).to.deep.equal([]);
      expect(errors).to.have.length(1);
      expect(errors[0]).to.match(/^Cannot open the store: Cannot connect to MongoDB \(database cms_prod\): /);
      expect(errors[0]).not.to.contain('pa55word');
    });
  });

  describe('as the script', () => {
    it('refuses to run without MONGODB_URI with exit code 2, saying why on stderr', async function () {
      this.timeout(10_000);
      const script = fileURLToPath(new URL('../../../../scripts/recount-reactions.mjs', import.meta.url));
      const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('MONGODB_')));
      const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(process.execPath, [script], { env }, (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr }));
      });
      expect(result.code).to.equal(2);
      expect(result.stdout).to.equal('');
      expect(result.stderr).to.contain('recount-reactions needs MONGODB_URI');
    });
  });
});
