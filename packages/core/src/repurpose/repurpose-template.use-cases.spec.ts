import { expect } from 'chai';
import sinon from 'sinon';
import { MemoryRepurposeTemplateRepository } from '../memory/memory-repurpose-template.repository.js';
import { ManualClock } from '../shared/clock.js';
import { entityTag } from '../shared/entity-tag.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { StaticLanguageCatalog } from '../shared/languages.js';
import { anonymousCaller, userCaller } from '../testing/callers.js';
import { GetRepurposeTemplate } from './get-repurpose-template.use-case.js';
import { UpdateRepurposeTemplate } from './update-repurpose-template.use-case.js';

describe('GetRepurposeTemplate and UpdateRepurposeTemplate', () => {
  const setup = () => {
    const repo = new MemoryRepurposeTemplateRepository();
    const clock = new ManualClock('2026-03-04T05:06:07.890Z');
    return {
      repo,
      clock,
      get: new GetRepurposeTemplate(repo, clock),
      update: new UpdateRepurposeTemplate(repo, new StaticLanguageCatalog(['en', 'fr']), clock),
    };
  };

  describe('when the tenant has no template', () => {
    it('creates one with the service defaults', async () => {
      const { get } = setup();
      const template = await get.execute(anonymousCaller('acme'));
      expect(template.tenantId).to.equal('acme');
      expect(template.defaults).to.deep.equal({ language: 'en', tone: 'professional', length: 'medium' });
      expect(Object.keys(template.platforms)).to.deep.equal(['linkedin', 'twitter', 'whatsapp', 'instagram']);
      const summary = Object.values(template.platforms).map((p) => [p.tone, p.length, p.maxHashtags]);
      expect(summary).to.deep.equal([
        ['professional', 'medium', 5],
        ['casual', 'short', 3],
        ['friendly', 'medium', 6],
        ['friendly', 'medium', 8],
      ]);
      for (const platform of Object.values(template.platforms)) {
        expect(platform.ctaTemplate).to.be.a('string').and.not.equal('');
        expect(platform.hashtagStyle).to.be.a('string').and.not.equal('');
      }
      expect(template.updatedBy).to.equal(null);
      expect(template.createdAt.toISOString()).to.equal(template.updatedAt.toISOString());
    });
  });

  describe('when the template exists', () => {
    it('returns it unchanged on later reads', async () => {
      const { get, clock } = setup();
      const first = await get.execute(anonymousCaller('acme'));
      clock.advance(60_000);
      expect(await get.execute(anonymousCaller('acme'))).to.deep.equal(first);
    });

    it('merges a partial update and records who made it', async () => {
      const { get, update, clock } = setup();
      await get.execute(anonymousCaller('acme'));
      clock.advance(1000);
      const updated = await update.execute(userCaller('acme', 'editor-1'), {
        changes: { defaults: { language: 'fr' }, platforms: { twitter: { maxHashtags: 0, tone: 'humorous' } } },
      });
      expect(updated.defaults).to.deep.equal({ language: 'fr', tone: 'professional', length: 'medium' });
      expect(updated.platforms.twitter).to.include({ maxHashtags: 0, tone: 'humorous', length: 'short' });
      expect(updated.updatedBy).to.equal('editor-1');
      expect(updated.updatedAt.toISOString()).to.equal('2026-03-04T05:06:08.890Z');
      expect(updated.createdAt.toISOString()).to.equal('2026-03-04T05:06:07.890Z');
    });

    it('takes maxHashtags at both ends of 0 to 30', async () => {
      const { update } = setup();
      const updated = await update.execute(userCaller('acme', 'editor-1'), { changes: { platforms: { linkedin: { maxHashtags: 30 }, twitter: { maxHashtags: 0 } } } });
      expect([updated.platforms.linkedin.maxHashtags, updated.platforms.twitter.maxHashtags]).to.deep.equal([30, 0]);
    });
  });

  describe('when an update is not acceptable', () => {
    const cases: Array<[string, object, string]> = [
      ['a language the tenant lacks', { defaults: { language: 'de' } }, 'defaults.language must be one of en, fr'],
      ['an unknown tone', { platforms: { linkedin: { tone: 'angry' } } }, 'platforms.linkedin.tone must be one of'],
      ['too many hashtags', { platforms: { linkedin: { maxHashtags: 31 } } }, 'platforms.linkedin.maxHashtags must be a whole number from 0 to 30'],
      ['an unknown platform', { platforms: { myspace: { tone: 'casual' } } }, 'platforms.myspace is not allowed'],
      ['an unknown setting', { platforms: { twitter: { font: 'serif' } } }, 'platforms.twitter.font is not allowed'],
      ['a setting named like an Object method', { defaults: { toString: 'x' } }, 'defaults.toString is not allowed'],
      ['a platform that is not an object', { platforms: { linkedin: 'casual' } }, 'platforms.linkedin must be an object'],
      ['defaults that are a list', { defaults: ['en'] }, 'defaults must be an object'],
    ];
    for (const [name, patch, message] of cases) {
      it(`rejects ${name} and changes nothing`, async () => {
        const { get, update } = setup();
        const before = await get.execute(anonymousCaller('acme'));
        const error = await update.execute(userCaller('acme', 'u1'), { changes: patch }).catch((e: unknown) => e);
        expect((error as { code: string }).code).to.equal(ErrorCodes.VALIDATION_FAILED);
        expect((error as Error).message).to.contain(message);
        expect(await get.execute(anonymousCaller('acme'))).to.deep.equal(before);
      });
    }

    it('needs a user', async () => {
      const { update } = setup();
      const error = await update.execute(anonymousCaller('acme'), { changes: {} }).catch((e: unknown) => e);
      expect((error as { code: string }).code).to.equal(ErrorCodes.MISSING_USER_ID);
    });
  });

  describe('when If-Match names a tag', () => {
    const code = (error: unknown) => (error as { code?: string }).code;
    const editor = userCaller('acme', 'editor-1');

    it('updates when it is the template’s tag, moving updatedAt past the one checked within the same millisecond', async () => {
      const { get, update } = setup();
      const first = await update.execute(editor, { changes: { defaults: { tone: 'casual' } } });
      const second = await update.execute(editor, { changes: { defaults: { tone: 'formal' } }, ifMatch: entityTag(first) });
      expect(second.defaults.tone).to.equal('formal');
      expect(second.updatedAt.getTime()).to.equal(first.updatedAt.getTime() + 1);
      expect(await get.execute(anonymousCaller('acme'))).to.deep.equal(second);
    });

    it('answers PRECONDITION_FAILED for another tag before looking at the body, and changes nothing', async () => {
      const { get, update } = setup();
      const before = await get.execute(anonymousCaller('acme'));
      const checkShape = sinon.spy();
      for (const ifMatch of [`W/${entityTag(before)}`, '"nope"', 'unquoted', '']) {
        const error = await update.execute(editor, { changes: { defaults: 'not an object' } as never, ifMatch, checkShape }).catch((e: unknown) => e);
        expect(code(error), ifMatch).to.equal(ErrorCodes.PRECONDITION_FAILED);
      }
      expect(checkShape.called).to.equal(false);
      expect(await get.execute(anonymousCaller('acme'))).to.deep.equal(before);
    });

    it('answers PRECONDITION_FAILED while the tenant has no template, creating none', async () => {
      const { repo, update } = setup();
      const error = await update.execute(editor, { changes: { defaults: { tone: 'casual' } }, ifMatch: '"any"' }).catch((e: unknown) => e);
      expect(code(error)).to.equal(ErrorCodes.PRECONDITION_FAILED);
      expect(await repo.find('acme')).to.equal(null);
    });

    it('reads nothing for `*` or without If-Match, and provisions the template as before', async () => {
      const { repo, update } = setup();
      const find = sinon.spy(repo, 'find');
      expect((await update.execute(editor, { changes: { defaults: { tone: 'casual' } }, ifMatch: '*' })).defaults.tone).to.equal('casual');
      expect((await update.execute(editor, { changes: { defaults: { tone: 'formal' } } })).defaults.tone).to.equal('formal');
      expect(find.called).to.equal(false);
    });
  });
});
