import { expect } from 'chai';
import type { AiUsageLedger } from '../../ai/ai-usage.ports.js';
import { useRepository, type RepositoryFactory } from './contract-fixture.js';

/** What every AiUsageLedger must do: running totals per (tenant, month), added atomically. */
export function aiUsageLedgerContract(name: string, factory: RepositoryFactory<AiUsageLedger>): void {
  describe(`AiUsageLedger contract: ${name}`, () => {
    const ledger = useRepository(factory);

    it('answers 0 for a month with no usage', async () => {
      expect(await ledger().get('acme', '2026-01')).to.equal(0);
    });

    it('adds to a running total and returns the total after each add', async () => {
      expect(await ledger().add('acme', '2026-01', 120)).to.equal(120);
      expect(await ledger().add('acme', '2026-01', 30)).to.equal(150);
      expect(await ledger().get('acme', '2026-01')).to.equal(150);
    });

    it('adds 0 without changing the total', async () => {
      expect(await ledger().add('acme', '2026-01', 0)).to.equal(0);
      await ledger().add('acme', '2026-01', 7);
      expect(await ledger().add('acme', '2026-01', 0)).to.equal(7);
      expect(await ledger().get('acme', '2026-01')).to.equal(7);
    });

    it('loses no tokens when 40 adds race, the first add of the month among them', async () => {
      const amounts = Array.from({ length: 40 }, (_, i) => i + 1);
      const totals = await Promise.all(amounts.map((tokens) => ledger().add('acme', '2026-02', tokens)));
      const sum = amounts.reduce((a, b) => a + b, 0);
      expect(await ledger().get('acme', '2026-02')).to.equal(sum);
      // Each add saw its own increment applied: the totals it returned are all different.
      expect(new Set(totals).size).to.equal(amounts.length);
      expect(Math.max(...totals)).to.equal(sum);
    });

    it('keeps months apart', async () => {
      await ledger().add('acme', '2026-01', 100);
      await ledger().add('acme', '2026-02', 5);
      await ledger().add('acme', '2027-01', 9);
      expect(await ledger().get('acme', '2026-01')).to.equal(100);
      expect(await ledger().get('acme', '2026-02')).to.equal(5);
      expect(await ledger().get('acme', '2027-01')).to.equal(9);
      expect(await ledger().get('acme', '2026-03')).to.equal(0);
    });

    it('keeps tenants apart, also when they add at the same time', async () => {
      await Promise.all([
        ...Array.from({ length: 10 }, () => ledger().add('acme', '2026-01', 3)),
        ...Array.from({ length: 10 }, () => ledger().add('other', '2026-01', 5)),
      ]);
      expect(await ledger().get('acme', '2026-01')).to.equal(30);
      expect(await ledger().get('other', '2026-01')).to.equal(50);
      expect(await ledger().get('third', '2026-01')).to.equal(0);
    });
  });
}
