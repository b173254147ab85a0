/**
 * The totals half shared by the article and comment repository contracts: atomic increments,
 * tenant scoping and paged listing. Registered inside those suites, not on its own.
 */
import { expect } from 'chai';
import type { ReactionTotalsStore } from '../../reactions/reactions.ports.js';

/** Adds a target with zero totals to the store and returns its id. */
export type SeedTarget = (tenantId: string) => Promise<string>;
/** Deletes a target from the store. */
export type RemoveTarget = (tenantId: string, id: string) => Promise<unknown>;

export function describeReactionTotals(store: () => ReactionTotalsStore, seed: SeedTarget, remove: RemoveTarget): void {
  describe('reaction totals', () => {
    it('adds a delta and returns the totals after it', async () => {
      const id = await seed('acme');
      expect(await store().incrementTotals('acme', id, { likes: 1, dislikes: 0 })).to.deep.equal({ likes: 1, dislikes: 0 });
      expect(await store().incrementTotals('acme', id, { likes: -1, dislikes: 1 })).to.deep.equal({ likes: 0, dislikes: 1 });
      expect(await store().incrementTotals('acme', id, { likes: 0, dislikes: 0 })).to.deep.equal({ likes: 0, dislikes: 1 });
    });

    it('answers null for a target of another tenant or none, and changes nothing there', async () => {
      const id = await seed('acme');
      expect(await store().incrementTotals('other', id, { likes: 1, dislikes: 0 })).to.equal(null);
      expect(await store().incrementTotals('acme', '0123456789abcdef01234567', { likes: 1, dislikes: 0 })).to.equal(null);
      for (const malformed of ['not-an-id', '', 'zz23456789abcdef01234567']) {
        expect(await store().incrementTotals('acme', malformed, { likes: 1, dislikes: 0 }), malformed).to.equal(null);
        expect(await store().incrementTotals('acme', malformed, { likes: 0, dislikes: 0 }), malformed).to.equal(null);
      }
      expect(await store().incrementTotals('acme', id, { likes: 0, dislikes: 0 })).to.deep.equal({ likes: 0, dislikes: 0 });
    });

    it('loses no increment when 60 race', async () => {
      const id = await seed('acme');
      const deltas = Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? { likes: 1, dislikes: 1 } : { likes: 2, dislikes: -1 }));
      await Promise.all(deltas.map((delta) => store().incrementTotals('acme', id, delta)));
      expect(await store().incrementTotals('acme', id, { likes: 0, dislikes: 0 })).to.deep.equal({ likes: 20 + 80, dislikes: 20 - 40 });
    });

    it('lists the stored totals of one tenant in id order, page by page, without clamping', async () => {
      const ids = [await seed('acme'), await seed('acme'), await seed('acme')].sort();
      await seed('other');
      await store().incrementTotals('acme', ids[1]!, { likes: 2, dislikes: -1 });
      const first = await store().listTotals('acme', null, 2);
      expect(first).to.deep.equal([
        { id: ids[0], likes: 0, dislikes: 0 },
        { id: ids[1], likes: 2, dislikes: -1 },
      ]);
      expect(await store().listTotals('acme', ids[1]!, 2)).to.deep.equal([{ id: ids[2], likes: 0, dislikes: 0 }]);
      expect(await store().listTotals('acme', ids[2]!, 2)).to.deep.equal([]);
    });

    // A store may keep what a pass over the pages needs between calls (the embedded one keeps the
    // tenant's ids in order): a page still lists what is stored when it is asked for.
    it('lists, after a page, what is stored then: not a target deleted since, and one added since', async () => {
      const ids = [await seed('acme'), await seed('acme'), await seed('acme'), await seed('acme')].sort();
      const afterId = (await store().listTotals('acme', null, 1))[0]!.id;
      expect(afterId).to.equal(ids[0]);
      await remove('acme', ids[1]!);
      expect((await store().listTotals('acme', afterId, 1)).map(({ id }) => id)).to.deep.equal([ids[2]]);
      const added = await seed('acme');
      await store().incrementTotals('acme', added, { likes: 1, dislikes: 0 });
      const stored = [...ids.filter((id) => id !== ids[1]), added].sort();
      const rest = stored.filter((id) => id > ids[2]!);
      expect(await store().listTotals('acme', ids[2]!, 10)).to.deep.equal(rest.map((id) => ({ id, likes: id === added ? 1 : 0, dislikes: 0 })));
    });
  });
}
