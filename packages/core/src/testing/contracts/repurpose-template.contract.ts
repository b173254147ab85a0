import { expect } from 'chai';
import { defaultRepurposeTemplate } from '../../repurpose/repurpose-template.js';
import type { RepurposeTemplateRepository } from '../../repurpose/repurpose.ports.js';
import { useRepository, type RepositoryFactory } from './contract-fixture.js';

export function repurposeTemplateRepositoryContract(name: string, factory: RepositoryFactory<RepurposeTemplateRepository>): void {
  describe(`RepurposeTemplateRepository contract: ${name}`, () => {
    const repo = useRepository(factory);
    const at = (iso: string) => new Date(iso);

    it('creates the template on first call and returns the stored one afterwards', async () => {
      const first = await repo().findOrCreate(defaultRepurposeTemplate('acme', at('2026-01-01T00:00:00.000Z')));
      const second = await repo().findOrCreate(defaultRepurposeTemplate('acme', at('2026-05-05T00:00:00.000Z')));
      expect(first.createdAt.toISOString()).to.equal('2026-01-01T00:00:00.000Z');
      expect(second).to.deep.equal(first);
    });

    it('returns exactly the template, no storage fields added', async () => {
      const candidate = defaultRepurposeTemplate('acme', at('2026-01-01T00:00:00.000Z'));
      expect(await repo().findOrCreate(candidate)).to.deep.equal(candidate);
      const updated = await repo().applyChanges('acme', [], { updatedBy: 'u1', updatedAt: at('2026-02-01T00:00:00.000Z') });
      expect(updated).to.deep.equal({ ...candidate, updatedBy: 'u1', updatedAt: at('2026-02-01T00:00:00.000Z') });
    });

    it('stores one template when eight first reads race, and all return it', async () => {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => repo().findOrCreate(defaultRepurposeTemplate('acme', at(`2026-01-01T00:00:0${i}.000Z`)))),
      );
      const created = new Set(results.map((t) => t.createdAt.toISOString()));
      expect(created.size).to.equal(1);
    });

    it('applies changes atomically and keeps other properties', async () => {
      await repo().findOrCreate(defaultRepurposeTemplate('acme', at('2026-01-01T00:00:00.000Z')));
      const updated = await repo().applyChanges(
        'acme',
        [
          { path: ['platforms', 'twitter', 'maxHashtags'], value: 1 },
          { path: ['defaults', 'tone'], value: 'formal' },
        ],
        { updatedBy: 'u1', updatedAt: at('2026-02-01T00:00:00.000Z') },
      );
      expect(updated?.platforms.twitter.maxHashtags).to.equal(1);
      expect(updated?.platforms.twitter.tone).to.equal('casual');
      expect(updated?.defaults).to.deep.equal({ language: 'en', tone: 'formal', length: 'medium' });
      expect(updated?.updatedBy).to.equal('u1');
      expect(updated?.updatedAt.toISOString()).to.equal('2026-02-01T00:00:00.000Z');
      expect(updated?.createdAt.toISOString()).to.equal('2026-01-01T00:00:00.000Z');
    });

    it('applies several changes under one platform, the last of two to one path winning', async () => {
      await repo().findOrCreate(defaultRepurposeTemplate('acme', at('2026-01-01T00:00:00.000Z')));
      const before = await repo().findOrCreate(defaultRepurposeTemplate('acme', at('2026-01-01T00:00:00.000Z')));
      const updated = await repo().applyChanges(
        'acme',
        [
          { path: ['platforms', 'linkedin', 'tone'], value: 'formal' },
          { path: ['platforms', 'linkedin', 'maxHashtags'], value: 2 },
          { path: ['platforms', 'linkedin', 'tone'], value: 'humorous' },
          { path: ['defaults', 'length'], value: 'short' },
        ],
        { updatedBy: 'u1', updatedAt: at('2026-02-01T00:00:00.000Z') },
      );
      expect(updated?.platforms.linkedin).to.deep.equal({ ...before.platforms.linkedin, tone: 'humorous', maxHashtags: 2 });
      expect(updated?.platforms.twitter).to.deep.equal(before.platforms.twitter);
      expect(updated?.defaults).to.deep.equal({ ...before.defaults, length: 'short' });
    });

    it('keeps both of two concurrent changes to different platforms', async () => {
      await repo().findOrCreate(defaultRepurposeTemplate('acme', at('2026-01-01T00:00:00.000Z')));
      const audit = { updatedBy: 'u1', updatedAt: at('2026-02-01T00:00:00.000Z') };
      await Promise.all([
        repo().applyChanges('acme', [{ path: ['platforms', 'linkedin', 'tone'], value: 'formal' }], audit),
        repo().applyChanges('acme', [{ path: ['platforms', 'instagram', 'tone'], value: 'humorous' }], audit),
      ]);
      const final = await repo().findOrCreate(defaultRepurposeTemplate('acme', at('2026-03-01T00:00:00.000Z')));
      expect(final.platforms.linkedin.tone).to.equal('formal');
      expect(final.platforms.instagram.tone).to.equal('humorous');
    });

    it('finds the stored template, or null without creating one', async () => {
      expect(await repo().find('acme')).to.equal(null);
      expect(await repo().find('acme')).to.equal(null);
      const created = await repo().findOrCreate(defaultRepurposeTemplate('acme', at('2026-01-01T00:00:00.000Z')));
      expect(await repo().find('acme')).to.deep.equal(created);
      expect(await repo().find('other')).to.equal(null);
    });

    describe('applyChanges with the template read (a patch under If-Match)', () => {
      const audit = { updatedBy: 'u1', updatedAt: at('2026-02-01T00:00:00.000Z') };
      const tone = (value: string) => [{ path: ['platforms', 'linkedin', 'tone'], value }] as const;

      it('sets the changes while the stored template is still the one read', async () => {
        await repo().findOrCreate(defaultRepurposeTemplate('acme', at('2026-01-01T00:00:00.000Z')));
        const read = (await repo().find('acme'))!;
        const updated = await repo().applyChanges('acme', tone('formal'), audit, read);
        expect(updated).to.deep.equal({ ...read, platforms: { ...read.platforms, linkedin: { ...read.platforms.linkedin, tone: 'formal' } }, ...audit });
        expect(await repo().find('acme')).to.deep.equal(updated);
      });

      it('answers null and writes nothing once another change landed, also one stamped with the same updatedAt', async () => {
        await repo().findOrCreate(defaultRepurposeTemplate('acme', at('2026-01-01T00:00:00.000Z')));
        await repo().applyChanges('acme', [], audit);
        const read = (await repo().find('acme'))!;
        // Another patch by the same user within the same millisecond: only the content differs.
        const meanwhile = await repo().applyChanges('acme', tone('humorous'), audit);
        expect(await repo().applyChanges('acme', tone('formal'), { updatedBy: 'u2', updatedAt: at('2026-02-01T00:00:00.001Z') }, read)).to.equal(null);
        expect(await repo().find('acme')).to.deep.equal(meanwhile);
      });

      it('lets exactly one of eight racing changes with the same template read land', async () => {
        await repo().findOrCreate(defaultRepurposeTemplate('acme', at('2026-01-01T00:00:00.000Z')));
        const read = (await repo().find('acme'))!;
        const tones = ['casual', 'friendly', 'formal', 'enthusiastic', 'informative', 'humorous', 'inspirational', 'casual'];
        const results = await Promise.all(tones.map((value, i) => repo().applyChanges('acme', tone(value), { updatedBy: `u${i}`, updatedAt: audit.updatedAt }, read)));
        const landed = results.filter((result) => result !== null);
        expect(landed).to.have.length(1);
        expect(await repo().find('acme')).to.deep.equal(landed[0]);
      });
    });

    it('keeps tenants apart and answers null for a tenant without a template', async () => {
      await repo().findOrCreate(defaultRepurposeTemplate('acme', at('2026-01-01T00:00:00.000Z')));
      const audit = { updatedBy: 'u1', updatedAt: at('2026-02-01T00:00:00.000Z') };
      expect(await repo().applyChanges('other', [], audit)).to.equal(null);
      const other = await repo().findOrCreate(defaultRepurposeTemplate('other', at('2026-04-01T00:00:00.000Z')));
      expect(other.tenantId).to.equal('other');
      expect(other.createdAt.toISOString()).to.equal('2026-04-01T00:00:00.000Z');
    });
  });
}
