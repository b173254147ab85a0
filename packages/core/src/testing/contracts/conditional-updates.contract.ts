/**
 * The update methods of the content repositories (§6.3): a write lands only while the stored
 * `updatedAt` is the one read, so of racing updates from one read exactly one lands; an
 * article's update never touches its totals; a form's new slug is unique per tenant.
 */
import { expect } from 'chai';
import { articleRecord, authorRecord, categoryRecord } from '../engagement-records.js';
import { formRecord } from '../form-fixtures.js';
import { useRepository, type RepositoryFactory } from './contract-fixture.js';
import type { ContentRepositories } from './keyset-lists.contract.js';

const READ_AT = new Date('2026-01-02T03:04:05.678Z');
const LATER = new Date('2026-01-02T03:04:05.679Z');

export function conditionalUpdateContract(name: string, factory: RepositoryFactory<ContentRepositories>): void {
  describe(`Conditional updates contract: ${name}`, () => {
    const repos = useRepository(factory);

    it('updates an author only from the updatedAt it was read at, and one of racing updates lands', async () => {
      const author = authorRecord('acme', { updatedAt: READ_AT });
      await repos().authors.insert(author);
      const tries = await Promise.all(['A', 'B', 'C'].map((n) => repos().authors.update({ ...author, name: n, updatedAt: LATER }, READ_AT)));
      expect(tries.filter(Boolean)).to.have.length(1);
      const stored = await repos().authors.findById('acme', author.id);
      expect(['A', 'B', 'C'][tries.indexOf(true)]).to.equal(stored?.name);
      expect(stored?.updatedAt.toISOString()).to.equal(LATER.toISOString());
      expect(await repos().authors.update({ ...author, name: 'stale' }, READ_AT)).to.equal(false);
      expect(await repos().authors.update({ ...author, tenantId: 'other' }, LATER)).to.equal(false);
    });

    it('updates a category, null parent included, from the updatedAt it was read at', async () => {
      const top = categoryRecord('acme');
      const child = categoryRecord('acme', { parentId: top.id, updatedAt: READ_AT });
      await repos().categories.insert(top);
      await repos().categories.insert(child);
      expect(await repos().categories.update({ ...child, parentId: null, name: 'Free', updatedAt: LATER }, READ_AT)).to.equal(true);
      expect(await repos().categories.findById('acme', child.id)).to.deep.include({ parentId: null, name: 'Free' });
      expect(await repos().categories.update({ ...child, name: 'stale' }, READ_AT)).to.equal(false);
    });

    it('updates an article’s fields but never its totals, and keeps the author filter right', async () => {
      const article = articleRecord('acme', { authorId: null, updatedAt: READ_AT });
      await repos().articles.insert(article);
      await repos().articles.incrementTotals('acme', article.id, { likes: 2, dislikes: 1 });
      const author = authorRecord('acme');
      const ok = await repos().articles.update({ ...article, title: 'New', authorId: author.id, likes: 0, dislikes: 0, updatedAt: LATER }, READ_AT);
      expect(ok).to.equal(true);
      expect(await repos().articles.update({ ...article, title: 'stale' }, READ_AT), 'a version read before the update').to.equal(false);
      expect(await repos().articles.update({ ...article, tenantId: 'other', title: 'elsewhere' }, LATER), 'another tenant').to.equal(false);
      expect(await repos().articles.findById('acme', article.id)).to.deep.include({ title: 'New', authorId: author.id, likes: 2, dislikes: 1 });
      const listed = await repos().articles.list('acme', { authorId: author.id }, { after: null, limit: 5 });
      expect(listed.map((a) => a.id)).to.deep.equal([article.id]);
      expect(await repos().articles.clearAuthor('acme', author.id)).to.equal(1);
    });

    it('updates a form, refusing a slug another form of the tenant has, and one of racing slug changes wins', async () => {
      const form = formRecord('acme', 'first', { updatedAt: READ_AT });
      const other = formRecord('acme', 'second', { updatedAt: READ_AT });
      await repos().forms.insert(form);
      await repos().forms.insert(other);
      await repos().forms.insert(formRecord('elsewhere', 'wanted'));
      expect(await repos().forms.update({ ...form, slug: 'second', updatedAt: LATER }, READ_AT)).to.equal('slugTaken');
      const race = await Promise.all([
        repos().forms.update({ ...form, slug: 'wanted', updatedAt: LATER }, READ_AT),
        repos().forms.update({ ...other, slug: 'wanted', updatedAt: LATER }, READ_AT),
      ]);
      expect([...race].sort()).to.deep.equal(['slugTaken', 'updated']);
      expect((await repos().forms.findBySlug('acme', 'wanted'))?.id).to.equal(race[0] === 'updated' ? form.id : other.id);
      const loser = race[0] === 'updated' ? other : form;
      expect((await repos().forms.findBySlug('acme', loser.slug))?.id).to.equal(loser.id);
      expect(await repos().forms.update({ ...form, title: { en: 'stale' } }, READ_AT)).to.equal(race[0] === 'updated' ? 'stale' : 'updated');
    });

    it('frees the old slug of an updated form and reads the new definition back', async () => {
      const form = formRecord('acme', 'old-slug', { updatedAt: READ_AT });
      await repos().forms.insert(form);
      await repos().forms.findById('acme', form.id); // now a recent read of the embedded store
      expect(await repos().forms.update({ ...form, slug: 'new-slug', isActive: false, updatedAt: LATER }, READ_AT)).to.equal('updated');
      expect(await repos().forms.findById('acme', form.id)).to.deep.include({ slug: 'new-slug', isActive: false });
      expect(await repos().forms.findBySlug('acme', 'old-slug')).to.equal(null);
      expect(await repos().forms.insert(formRecord('acme', 'old-slug'))).to.equal(true);
    });
  });
}
