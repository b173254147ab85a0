import { expect } from 'chai';
import { ArticleRepositoryToken, ManageTenants, ReactToArticle, RecountReactions, silentLogger, systemClock, type ArticleRepository } from '@cms/core';
import { userCaller } from '@cms/core/testing';
import { loadConfig } from '../config/service-config.js';
import { buildContainer } from '../container/build-container.js';
import { parseRecountArguments, RECOUNT_USAGE, recountReactionsWith, runRecountReactions } from './recount-reactions.command.js';

describe('recount-reactions command', () => {
  const setup = async () => {
    const container = await buildContainer({ config: loadConfig({}), clock: systemClock, logger: silentLogger, requestLogger: undefined });
    await container.get(ManageTenants).createTenant('acme', 'Acme');
    const articles = container.get<ArticleRepository>(ArticleRepositoryToken);
    const article = { id: '0000000000000000000000f1', tenantId: 'acme', title: 'T', content: '', authorId: null, categoryId: null, subCategoryId: null };
    await articles.insert({ ...article, reactionsEnabled: true, likes: 0, dislikes: 0, createdAt: new Date(), updatedAt: new Date() });
    await container.get(ReactToArticle).execute(userCaller('acme', 'u1'), { articleId: article.id, reaction: { type: 'like' } });
    const lines: string[] = [];
    return { container, articles, articleId: article.id, lines, out: (line: string) => void lines.push(line) };
  };

  describe('when the totals match', () => {
    it('reports no drift and exits 0', async () => {
      const { container, lines, out } = await setup();
      expect(await recountReactionsWith(container.get(RecountReactions), { repair: false }, out)).to.equal(0);
      expect(lines).to.deep.equal(['checked 1 articles and 0 comments in 1 tenants: no drift']);
    });
  });

  describe('when drift has been planted', () => {
    it('reports it and exits 1 without --repair, then repairs it with --repair', async () => {
      const { container, articles, articleId, lines, out } = await setup();
      await articles.incrementTotals('acme', articleId, { likes: 4, dislikes: 1 });
      expect(await recountReactionsWith(container.get(RecountReactions), { repair: false }, out)).to.equal(1);
      expect(lines).to.deep.equal([
        'checked 1 articles and 0 comments in 1 tenants: 1 with drift',
        `  acme article ${articleId}: stored 5 likes / 1 dislikes, counted 1 / 0`,
        'run again with --repair to fix',
      ]);
      lines.length = 0;
      expect(await recountReactionsWith(container.get(RecountReactions), { repair: true }, out)).to.equal(0);
      expect(lines.at(-1)).to.equal('repaired 1 of 1');
      expect(await articles.findById('acme', articleId)).to.include({ likes: 1, dislikes: 0 });
    });
  });

  describe('when started without a persistent store or with bad arguments', () => {
    it('refuses the embedded store with exit code 2, saying why on stderr', async () => {
      const lines: string[] = [];
      const errors: string[] = [];
      expect(await runRecountReactions({}, [], { stdout: (line) => void lines.push(line), stderr: (line) => void errors.push(line) })).to.equal(2);
      expect(lines).to.deep.equal([]);
      expect(errors).to.have.length(1);
      expect(errors[0]).to.contain('needs MONGODB_URI');
    });

    it('prints the usage on stdout when asked (exit 0), and on stderr after an unknown argument (exit 2)', async () => {
      const run = async (argv: string[]) => {
        const lines: string[] = [];
        const errors: string[] = [];
        const code = await runRecountReactions({}, argv, { stdout: (line) => void lines.push(line), stderr: (line) => void errors.push(line) });
        return { code, lines, errors };
      };
      expect(await run(['--help'])).to.deep.equal({ code: 0, lines: [RECOUNT_USAGE], errors: [] });
      expect(await run(['--fix'])).to.deep.equal({ code: 2, lines: [], errors: [`unknown argument "--fix"\n${RECOUNT_USAGE}`] });
    });

    it('parses --repair and --tenant, and refuses anything else', () => {
      expect(parseRecountArguments(['--repair', '--tenant', 'acme'])).to.deep.equal({ repair: true, tenantId: 'acme' });
      expect(parseRecountArguments([])).to.deep.equal({ repair: false });
      expect(parseRecountArguments(['--fix'])).to.be.a('string').that.contains('unknown argument "--fix"');
      expect(parseRecountArguments(['--tenant'])).to.be.a('string');
    });
  });
});
