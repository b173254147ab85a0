import { expect } from 'chai';
import { ErrorCodes } from '../shared/error-codes.js';
import { anonymousCaller, guestCaller, userCaller } from '../testing/callers.js';
import { memoryEngagement, type EngagementFixtureOptions } from '../testing/engagement-fixture.js';
import { domainErrorOf } from '../testing/expect-domain-error.js';

describe('AdmitGuest', () => {
  const setup = (options: EngagementFixtureOptions = {}) => {
    const world = memoryEngagement({ acceptedTokens: new Map([['token', undefined], ['good', 0.9], ['edge', 0.5], ['weak', 0.3]]), ...options });
    return { world, admit: world.admitGuest };
  };
  const codeOf = async (promise: Promise<void>) => (await domainErrorOf(promise)).code;

  describe('when the caller is a user', () => {
    it('admits without CAPTCHA or counting', async () => {
      const { world, admit } = setup();
      await admit.execute(userCaller('acme', 'u1', 'member', false));
      expect(world.captcha.calls).to.deep.equal([]);
      expect(world.repositories.limiter.size).to.equal(0);
    });
  });

  describe('when a guest fails a check', () => {
    it('answers in order: no token, no guest id, token rejected', async () => {
      const { world, admit } = setup();
      expect(await codeOf(admit.execute(anonymousCaller('acme')))).to.equal(ErrorCodes.GUEST_CAPTCHA_REQUIRED);
      expect(await codeOf(admit.execute({ tenantId: 'acme', user: undefined, guest: { id: undefined, captchaToken: undefined } }))).to.equal(ErrorCodes.GUEST_CAPTCHA_REQUIRED);
      expect(await codeOf(admit.execute(guestCaller('acme', 'guest-0001', '')))).to.equal(ErrorCodes.GUEST_CAPTCHA_REQUIRED);
      expect(await codeOf(admit.execute(guestCaller('acme', undefined, 'forged')))).to.equal(ErrorCodes.GUEST_ID_MISSING);
      expect(world.captcha.calls).to.deep.equal([]);
      expect(await codeOf(admit.execute(guestCaller('acme', 'guest-0001', 'forged')))).to.equal(ErrorCodes.GUEST_CAPTCHA_INVALID);
      expect(world.repositories.limiter.size, 'a rejected token is not counted').to.equal(0);
    });

    it('rejects a score below GUEST_CAPTCHA_MIN_SCORE and accepts one at it', async () => {
      const { admit } = setup();
      expect(await codeOf(admit.execute(guestCaller('acme', 'guest-0001', 'weak')))).to.equal(ErrorCodes.GUEST_CAPTCHA_INVALID);
      await admit.execute(guestCaller('acme', 'guest-0001', 'edge'));
      await admit.execute(guestCaller('acme', 'guest-0001', 'good'));
    });
  });

  describe('when the guest passes the CAPTCHA', () => {
    it('verifies the token with the default provider', async () => {
      const { world, admit } = setup({ captchaProvider: 'turnstile' });
      await admit.execute(guestCaller('acme', 'guest-0001', 'token'));
      expect(world.captcha.calls).to.deep.equal([{ provider: 'turnstile', token: 'token' }]);
    });

    it('admits exactly the limit in a window, refuses the next, and counts each guest and tenant apart', async () => {
      const { admit } = setup();
      for (let i = 0; i < 30; i += 1) await admit.execute(guestCaller('acme', 'guest-0001'));
      expect(await codeOf(admit.execute(guestCaller('acme', 'guest-0001')))).to.equal(ErrorCodes.GUEST_RATE_LIMITED);
      expect(await codeOf(admit.execute(guestCaller('acme', 'guest-0001')))).to.equal(ErrorCodes.GUEST_RATE_LIMITED);
      await admit.execute(guestCaller('acme', 'guest-0002'));
      await admit.execute(guestCaller('other', 'guest-0001'));
    });

    it('starts a fresh count when the fixed window turns', async () => {
      const { world, admit } = setup({ policy: { limit: 2, windowSeconds: 60 } });
      world.clock.set('2026-03-04T05:06:00.000Z');
      await admit.execute(guestCaller('acme', 'guest-0001'));
      world.clock.set('2026-03-04T05:06:59.999Z');
      await admit.execute(guestCaller('acme', 'guest-0001'));
      expect(await codeOf(admit.execute(guestCaller('acme', 'guest-0001')))).to.equal(ErrorCodes.GUEST_RATE_LIMITED);
      world.clock.set('2026-03-04T05:07:00.000Z');
      await admit.execute(guestCaller('acme', 'guest-0001'));
      await admit.execute(guestCaller('acme', 'guest-0001'));
      expect(await codeOf(admit.execute(guestCaller('acme', 'guest-0001')))).to.equal(ErrorCodes.GUEST_RATE_LIMITED);
    });

    it('admits exactly the limit when 40 requests of one guest race', async () => {
      const { admit } = setup({ policy: { limit: 25 } });
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, () => admit.execute(guestCaller('acme', 'guest-0001')).then(() => 'ok', (e: { code: string }) => e.code)),
      );
      expect(outcomes.filter((o) => o === 'ok')).to.have.length(25);
      expect(outcomes.filter((o) => o === ErrorCodes.GUEST_RATE_LIMITED)).to.have.length(15);
    });
  });
});
