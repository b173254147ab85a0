import { expect } from 'chai';
import { SignJWT } from 'jose';
import sinon from 'sinon';
import { createJwtVerifier, VERIFIED_MEMO_SIZE } from './jwt-verifier.js';

describe('createJwtVerifier (HS256)', () => {
  const secret = 'a-test-secret-of-enough-length-0123456789';
  const T0 = Date.parse('2026-11-22T12:00:00.000Z');
  const seconds = (ms: number) => Math.floor(ms / 1000);
  const sign = (claims: Record<string, unknown>, key = secret) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(key));
  const setup = async () => {
    let now = T0;
    const verifier = await createJwtVerifier({ secret, now: () => now });
    return { verifier, at: (ms: number) => (now = ms) };
  };

  it('accepts a valid token, again and again, with its claims', async () => {
    const { verifier } = await setup();
    const token = await sign({ sub: 'u1', role: 'editor', tenant: 'acme', exp: seconds(T0) + 60 });
    for (let i = 0; i < 3; i++) expect(await verifier.verify(token)).to.deep.equal({ userId: 'u1', role: 'editor', tenant: 'acme' });
  });

  it('takes an absent role as member and refuses a role that is not one of the four, null included', async () => {
    const { verifier } = await setup();
    expect(await verifier.verify(await sign({ sub: 'u1' }))).to.deep.equal({ userId: 'u1', role: 'member', tenant: undefined });
    for (const role of [null, '', 'Admin', ['admin'], 1]) {
      expect(await verifier.verify(await sign({ sub: 'u1', role })), JSON.stringify(role)).to.equal(undefined);
    }
  });

  it('refuses a token it accepted once the token has expired, as jose would', async () => {
    const { verifier, at } = await setup();
    const token = await sign({ sub: 'u1', exp: seconds(T0) + 60 });
    expect(await verifier.verify(token)).to.deep.include({ userId: 'u1', role: 'member' });
    at(T0 + 59_999);
    expect(await verifier.verify(token)).to.not.equal(undefined);
    at(T0 + 60_000);
    expect(await verifier.verify(token)).to.equal(undefined);
  });

  it('refuses a token before its nbf, and accepts it from then on', async () => {
    const { verifier, at } = await setup();
    const token = await sign({ sub: 'u1', nbf: seconds(T0) + 10 });
    expect(await verifier.verify(token)).to.equal(undefined);
    at(T0 + 10_000);
    expect(await verifier.verify(token)).to.deep.include({ userId: 'u1' });
    expect(await verifier.verify(token), 'again, within the nbf second (remembered)').to.deep.include({ userId: 'u1' });
  });

  it('refuses a sub that is no user id (CONTRACT §1.3: the x-user-id rules), and takes one of 128 characters', async () => {
    const { verifier } = await setup();
    for (const sub of ['has space', 'x'.repeat(129), '', 'ünïcode']) {
      expect(await verifier.verify(await sign({ sub })), JSON.stringify(sub)).to.equal(undefined);
    }
    expect(await verifier.verify(await sign({ sub: 'x'.repeat(128) }))).to.deep.include({ userId: 'x'.repeat(128) });
  });

  it('refuses a token signed with another key or changed, even after the genuine one was accepted', async () => {
    const { verifier } = await setup();
    const genuine = await sign({ sub: 'u1', role: 'member' });
    expect(await verifier.verify(genuine)).to.not.equal(undefined);
    const [header, , signature] = genuine.split('.');
    const promoted = Buffer.from(JSON.stringify({ sub: 'u1', role: 'admin' })).toString('base64url');
    expect(await verifier.verify(`${header}.${promoted}.${signature}`)).to.equal(undefined);
    expect(await verifier.verify(await sign({ sub: 'u1' }, 'another-secret-of-enough-length-0123456789'))).to.equal(undefined);
  });

  it('keeps verifying after more tokens than it remembers', async () => {
    const { verifier } = await setup();
    const tokens = await Promise.all(Array.from({ length: VERIFIED_MEMO_SIZE + 1 }, (_, i) => sign({ sub: `u${i}` })));
    for (const token of tokens) await verifier.verify(token);
    expect(await verifier.verify(tokens[0]!)).to.deep.include({ userId: 'u0' });
    expect(await verifier.verify(tokens.at(-1)!)).to.deep.include({ userId: `u${VERIFIED_MEMO_SIZE}` });
  });

  describe('when the memo fills up', () => {
    // Each signature check goes through WebCrypto: counting its calls tells a token served from
    // the memo (none) from a token verified afresh (one).
    let signatureChecks: sinon.SinonSpy;
    beforeEach(() => (signatureChecks = sinon.spy(crypto.subtle, 'verify')));
    afterEach(() => signatureChecks.restore());

    const checksFor = async (verify: () => Promise<unknown>): Promise<number> => {
      const before = signatureChecks.callCount;
      expect(await verify()).to.deep.include({ userId: 'first' });
      return signatureChecks.callCount - before;
    };

    it('serves a token from the memo while it holds VERIFIED_MEMO_SIZE tokens, and checks its signature again once one more starts the memo over', async () => {
      const { verifier } = await setup();
      const first = await sign({ sub: 'first' });
      const others = await Promise.all(Array.from({ length: VERIFIED_MEMO_SIZE }, (_, i) => sign({ sub: `other-${i}` })));
      expect(await checksFor(() => verifier.verify(first)), 'first verification').to.equal(1);
      for (const token of others.slice(0, -1)) await verifier.verify(token);
      expect(await checksFor(() => verifier.verify(first)), `remembered among ${VERIFIED_MEMO_SIZE} tokens`).to.equal(0);
      await verifier.verify(others.at(-1)!);
      expect(await checksFor(() => verifier.verify(first)), 'after the memo started over').to.equal(1);
      expect(await checksFor(() => verifier.verify(first)), 'remembered again').to.equal(0);
    });
  });
});
