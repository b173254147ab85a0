import { expect } from 'chai';
import type { GuestRateLimiter, GuestRateWindow } from '../../guests/guests.ports.js';
import { useRepository, type RepositoryFactory } from './contract-fixture.js';

export function guestRateLimiterContract(name: string, factory: RepositoryFactory<GuestRateLimiter>): void {
  describe(`GuestRateLimiter contract: ${name}`, () => {
    const limiter = useRepository(factory);
    const window = (overrides: Partial<GuestRateWindow> = {}): GuestRateWindow => ({
      tenantId: 'acme',
      guestId: 'guest-0001',
      startsAt: new Date('2026-01-01T00:00:00.000Z'),
      endsAt: new Date('2026-01-01T00:10:00.000Z'),
      ...overrides,
    });

    it('counts hits in a window from one', async () => {
      expect(await limiter().hit(window())).to.equal(1);
      expect(await limiter().hit(window())).to.equal(2);
      expect(await limiter().hit(window())).to.equal(3);
    });

    it('counts each tenant, guest and window on its own', async () => {
      await limiter().hit(window());
      await limiter().hit(window());
      expect(await limiter().hit(window({ tenantId: 'other' }))).to.equal(1);
      expect(await limiter().hit(window({ guestId: 'guest-0002' }))).to.equal(1);
      const next = { startsAt: new Date('2026-01-01T00:10:00.000Z'), endsAt: new Date('2026-01-01T00:20:00.000Z') };
      expect(await limiter().hit(window(next))).to.equal(1);
      expect(await limiter().hit(window())).to.equal(3);
    });

    it('gives 40 concurrent hits the counts 1 to 40, each once', async () => {
      const counts = await Promise.all(Array.from({ length: 40 }, () => limiter().hit(window())));
      expect([...counts].sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 40 }, (_, i) => i + 1));
    });
  });
}
