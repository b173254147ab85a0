import { expect } from 'chai';
import { aiUsageLedgerContract } from '../testing/contracts/ai-usage-ledger.contract.js';
import { MemoryAiUsageLedger } from './memory-ai-usage-ledger.js';

aiUsageLedgerContract('memory', async () => ({ repository: new MemoryAiUsageLedger() }));

describe('MemoryAiUsageLedger', () => {
  describe('when given values no store should hold', () => {
    it('refuses a malformed month and a token count that is not a whole number ≥ 0', async () => {
      const ledger = new MemoryAiUsageLedger();
      const failure = (promise: Promise<unknown>) => promise.then(() => 'resolved', (e: Error) => e.message);
      expect(await failure(ledger.add('acme', '2026-1', 1))).to.equal('month must be YYYY-MM (got 2026-1)');
      expect(await failure(ledger.add('acme', '2026-01', -1))).to.contain('whole number');
      expect(await failure(ledger.add('acme', '2026-01', 1.5))).to.contain('whole number');
      expect(await failure(ledger.add('acme', '2026-01', Number.NaN))).to.contain('whole number');
      expect(await ledger.get('acme', '2026-01')).to.equal(0);
    });
  });
});
