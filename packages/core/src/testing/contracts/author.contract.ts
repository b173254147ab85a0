import { expect } from 'chai';
import type { AuthorRepository } from '../../authors/authors.ports.js';
import { authorRecord } from '../engagement-records.js';
import { tryToChange, useRepository, type RepositoryFactory } from './contract-fixture.js';

const MALFORMED = ['not-an-id', '', '0123456789abcdef0123456', '0123456789abcdef012345678', 'zz23456789abcdef01234567'];

export function authorRepositoryContract(name: string, factory: RepositoryFactory<AuthorRepository>): void {
  describe(`AuthorRepository contract: ${name}`, () => {
    const repo = useRepository(factory);

    it('stores an author and finds it by id, with every field and timestamp', async () => {
      const author = authorRecord('acme', { email: 'ada@example.com', bio: 'Writes.', avatarUrl: 'https://example.com/a.png' });
      await repo().insert(author);
      expect(await repo().findById('acme', author.id)).to.deep.equal(author);
    });

    it('keeps tenants apart', async () => {
      const author = authorRecord('acme');
      await repo().insert(author);
      expect(await repo().findById('other', author.id)).to.equal(null);
      expect(await repo().delete('other', author.id)).to.equal(false);
      expect(await repo().findById('acme', author.id)).to.not.equal(null);
    });

    it('finds and deletes nothing for a malformed id, without throwing', async () => {
      await repo().insert(authorRecord('acme'));
      for (const id of MALFORMED) {
        expect(await repo().findById('acme', id), id).to.equal(null);
        expect(await repo().delete('acme', id), id).to.equal(false);
      }
    });

    it('deletes once: the second delete finds nothing', async () => {
      const author = authorRecord('acme');
      await repo().insert(author);
      expect(await repo().delete('acme', author.id)).to.equal(true);
      expect(await repo().delete('acme', author.id)).to.equal(false);
      expect(await repo().findById('acme', author.id)).to.equal(null);
    });

    it('reports exactly one deletion when six race', async () => {
      const author = authorRecord('acme');
      await repo().insert(author);
      const results = await Promise.all(Array.from({ length: 6 }, () => repo().delete('acme', author.id)));
      expect(results.filter(Boolean)).to.have.length(1);
    });

    it('returns records that never change the store when changed', async () => {
      const author = authorRecord('acme');
      await repo().insert(author);
      const found = (await repo().findById('acme', author.id)) as { name: string };
      tryToChange(() => (found.name = 'mutated'));
      expect((await repo().findById('acme', author.id))?.name).to.equal('Ada');
    });
  });
}
