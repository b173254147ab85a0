import { expect } from 'chai';
import { MemoryAiUsageLedger } from '../memory/memory-ai-usage-ledger.js';
import { MemoryTenantRepository } from '../memory/memory-tenancy.repository.js';
import { ManualClock } from '../shared/clock.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { GetAiUsage } from './get-ai-usage.use-case.js';

describe('GetAiUsage', () => {
  const setup = async () => {
    const tenants = new MemoryTenantRepository();
    await tenants.insert({ id: 'acme', name: 'Acme', aiTokenLimitMonthly: null, adminEmails: [], createdAt: new Date(0) });
    const ledger = new MemoryAiUsageLedger();
    const clock = new ManualClock('2026-05-31T23:59:59.999Z');
    return { tenants, ledger, clock, usage: new GetAiUsage(ledger, tenants, { defaultMonthlyTokenLimit: 1000 }, clock) };
  };

  describe('when the tenant has spent tokens this month', () => {
    it('reports the UTC month, used, limit and remaining', async () => {
      const { ledger, usage } = await setup();
      await ledger.add('acme', '2026-05', 250);
      await ledger.add('acme', '2026-04', 900);
      expect(await usage.execute('acme')).to.deep.equal({ month: '2026-05', used: 250, remaining: 750, limit: 1000 });
    });
  });

  describe('when the tenant has its own limit', () => {
    it('reports against it, with remaining never below 0', async () => {
      const { ledger, tenants, usage } = await setup();
      await tenants.setAiTokenLimit('acme', 200);
      await ledger.add('acme', '2026-05', 250);
      expect(await usage.execute('acme')).to.deep.equal({ month: '2026-05', used: 250, remaining: 0, limit: 200 });
    });
  });

  describe('when another month is asked for', () => {
    it('reports that month, and nothing for a month without usage', async () => {
      const { ledger, clock, usage } = await setup();
      await ledger.add('acme', '2026-04', 900);
      expect(await usage.execute('acme', '2026-04')).to.deep.equal({ month: '2026-04', used: 900, remaining: 100, limit: 1000 });
      clock.set('2026-06-01T00:00:00.000Z');
      expect(await usage.execute('acme')).to.deep.equal({ month: '2026-06', used: 0, remaining: 1000, limit: 1000 });
    });

    it('refuses a malformed month', async () => {
      const { usage } = await setup();
      const error = await usage.execute('acme', '2026-13').catch((e: unknown) => e);
      expect((error as { code: string }).code).to.equal(ErrorCodes.VALIDATION_FAILED);
      expect((error as Error).message).to.equal('month must be a month such as 2026-01');
    });
  });

  describe('when the tenant does not exist', () => {
    it('answers TENANT_NOT_FOUND', async () => {
      const { usage } = await setup();
      const error = await usage.execute('ghost').catch((e: unknown) => e);
      expect((error as { code: string }).code).to.equal(ErrorCodes.TENANT_NOT_FOUND);
    });
  });

  describe('when it is built with a policy of another shape', () => {
    it('refuses it at once, naming the member, instead of reporting NaN remaining', async () => {
      const { tenants, ledger, clock } = await setup();
      for (const policy of [{ limit: 100 }, { defaultMonthlyTokenLimit: -1 }, { defaultMonthlyTokenLimit: 1.5 }, { defaultMonthlyTokenLimit: '100' }, undefined]) {
        expect(() => new GetAiUsage(ledger, tenants, policy as never, clock), JSON.stringify(policy)).to.throw(
          TypeError,
          'GetAiUsage: policy.defaultMonthlyTokenLimit must be a whole number of at least 0',
        );
      }
      expect((await new GetAiUsage(ledger, tenants, { defaultMonthlyTokenLimit: 0 }, clock).execute('acme')).remaining).to.equal(0);
    });
  });
});
