/**
 * Contract of reaction record stores. The concurrency cases check the property the totals rely
 * on: the previous values returned by racing set/remove calls form one consistent history, so
 * the sum of the deltas they imply equals what the records finally hold.
 */
import { expect } from 'chai';
import { addTotals, NO_REACTIONS, reactionDelta, type ReactionTotals, type ReactionType } from '../../reactions/reaction.js';
import type { ReactionKey, ReactionRepository } from '../../reactions/reactions.ports.js';
import { useRepository, type RepositoryFactory } from './contract-fixture.js';

const TARGET = '0000000000000000000000c1';
const AT = new Date('2026-01-02T03:04:05.678Z');

type Operation = ReactionType | null;

/** A fixed pseudo-random mix of likes, dislikes and removals (same sequence on every run). */
function operations(count: number, seed: number): Operation[] {
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return (['like', 'dislike', null] as const)[state % 3]!;
  });
}

export function reactionRepositoryContract(name: string, factory: RepositoryFactory<ReactionRepository>): void {
  describe(`ReactionRepository contract: ${name}`, () => {
    const repo = useRepository(factory);
    const key = (actor: string, overrides: Partial<ReactionKey> = {}): ReactionKey => ({
      tenantId: 'acme',
      targetKind: 'article',
      targetId: TARGET,
      actor,
      ...overrides,
    });
    /** Applies one operation and returns the change in totals it implies. */
    const apply = async (k: ReactionKey, op: Operation): Promise<ReactionTotals> => {
      const previous = op === null ? await repo().removeReaction(k) : await repo().setReaction(k, op, AT);
      return reactionDelta(previous, op);
    };
    const tallyOf = async (targetId = TARGET) => (await repo().tally('acme', 'article', [targetId])).get(targetId);

    it('sets a reaction, returning the previous type each time', async () => {
      expect(await repo().setReaction(key('user:a'), 'like', AT)).to.equal(null);
      expect(await repo().setReaction(key('user:a'), 'like', AT)).to.equal('like');
      expect(await repo().setReaction(key('user:a'), 'dislike', AT)).to.equal('like');
      expect(await repo().findReaction(key('user:a'))).to.equal('dislike');
    });

    it('removes a reaction, returning what it held, and null when there is none', async () => {
      await repo().setReaction(key('user:a'), 'dislike', AT);
      expect(await repo().removeReaction(key('user:a'))).to.equal('dislike');
      expect(await repo().removeReaction(key('user:a'))).to.equal(null);
      expect(await repo().findReaction(key('user:a'))).to.equal(null);
    });

    it('keeps tenants, target kinds, targets and actors apart', async () => {
      await repo().setReaction(key('user:a'), 'like', AT);
      const others = [
        key('user:a', { tenantId: 'other' }),
        key('user:a', { targetKind: 'comment' }),
        key('user:a', { targetId: '0000000000000000000000c2' }),
        key('user:b'),
        key('guest:a'),
      ];
      for (const other of others) expect(await repo().findReaction(other)).to.equal(null);
      for (const other of others) expect(await repo().removeReaction(other)).to.equal(null);
      expect(await repo().findReaction(key('user:a'))).to.equal('like');
    });

    it('finds, removes and counts nothing for a malformed target id, without throwing', async () => {
      await repo().setReaction(key('user:a'), 'like', AT);
      for (const targetId of ['not-an-id', '', 'zz23456789abcdef01234567']) {
        expect(await repo().findReaction(key('user:a', { targetId })), targetId).to.equal(null);
        expect(await repo().removeReaction(key('user:a', { targetId })), targetId).to.equal(null);
      }
      const tally = await repo().tally('acme', 'article', ['not-an-id', TARGET]);
      expect(tally.get('not-an-id')).to.deep.equal({ likes: 0, dislikes: 0 });
      expect(tally.get(TARGET)).to.deep.equal({ likes: 1, dislikes: 0 });
    });

    it('tallies like and dislike records per target, zero for targets without any', async () => {
      await repo().setReaction(key('user:a'), 'like', AT);
      await repo().setReaction(key('user:b'), 'like', AT);
      await repo().setReaction(key('user:c'), 'dislike', AT);
      await repo().setReaction(key('user:a', { targetKind: 'comment' }), 'dislike', AT);
      await repo().setReaction(key('user:a', { tenantId: 'other' }), 'dislike', AT);
      const second = '0000000000000000000000c2';
      await repo().setReaction(key('user:a', { targetId: second }), 'dislike', AT);
      const empty = '0000000000000000000000c3';
      const tally = await repo().tally('acme', 'article', [TARGET, second, empty]);
      expect(tally.get(TARGET)).to.deep.equal({ likes: 2, dislikes: 1 });
      expect(tally.get(second)).to.deep.equal({ likes: 0, dislikes: 1 });
      expect(tally.get(empty)).to.deep.equal({ likes: 0, dislikes: 0 });
    });

    describe('when calls race', () => {
      it('creates one record for ten concurrent likes by one actor: one call sees none before it', async () => {
        const previous = await Promise.all(Array.from({ length: 10 }, () => repo().setReaction(key('user:a'), 'like', AT)));
        expect(previous.filter((p) => p === null)).to.have.length(1);
        expect(previous.filter((p) => p === 'like')).to.have.length(9);
        expect(await tallyOf()).to.deep.equal({ likes: 1, dislikes: 0 });
      });

      it('reports one consistent history for 60 concurrent sets and removals by one actor', async () => {
        const deltas = await Promise.all(operations(60, 7).map((op) => apply(key('user:a'), op)));
        const total = deltas.reduce(addTotals, NO_REACTIONS);
        const tally = await tallyOf();
        expect(total).to.deep.equal(tally);
        expect(tally!.likes + tally!.dislikes).to.be.at.most(1);
        const held = await repo().findReaction(key('user:a'));
        expect(tally).to.deep.equal({ likes: held === 'like' ? 1 : 0, dislikes: held === 'dislike' ? 1 : 0 });
      });

      it('reports one consistent history for 30 actors each racing four changes', async () => {
        const actors = Array.from({ length: 30 }, (_, i) => `guest:g${i}`);
        const ops = operations(120, 11);
        const deltas = await Promise.all(ops.map((op, i) => apply(key(actors[i % 30]!), op)));
        const total = deltas.reduce(addTotals, NO_REACTIONS);
        const held = await Promise.all(actors.map((actor) => repo().findReaction(key(actor))));
        const expected = { likes: held.filter((h) => h === 'like').length, dislikes: held.filter((h) => h === 'dislike').length };
        expect(await tallyOf()).to.deep.equal(expected);
        expect(total).to.deep.equal(expected);
      });
    });
  });
}
