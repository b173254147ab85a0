/**
 * §1 guest engagement over HTTP, on every guest write route: the order of the guest checks,
 * where the CAPTCHA token is read, provider verification, and the fixed-window rate limit.
 */
import { expect } from 'chai';
import { CaptchaVerifierToken, GuestRateLimiterToken, ManualClock, StaticCaptchaVerifier } from '@cms/core';
import { engagementClient, type EngagementClient } from '../testing/engagement-client.js';
import { addLatency } from '../testing/latency-proxy.js';
import { CapturingLogger, startTestService, TEST_KEYS, TEST_STORAGES, type TestService, type TestStorage } from '../testing/test-service.js';

type Headers = Record<string, string>;
const guest = (id: string, token = 'good-token'): Headers => ({ 'x-guest-id': id, 'x-captcha-token': token });
const LIMITED = { status: 429, message: 'Too many guest reactions, please try later' };

interface World {
  api: TestService;
  client: EngagementClient;
  verifier: StaticCaptchaVerifier;
  clock: ManualClock;
  requests: CapturingLogger;
}

async function startWorld(storage: TestStorage, env: Record<string, string> = {}): Promise<World> {
  const verifier = new StaticCaptchaVerifier(new Map([['good-token', undefined], ['high-score', 0.9], ['low-score', 0.2]]));
  const clock = new ManualClock('2026-05-01T10:00:00.000Z');
  const requests = new CapturingLogger();
  const api = await startTestService(env, {
    storage,
    clock,
    requestLogger: requests,
    configure: (container) => {
      container.rebind(CaptchaVerifierToken).toConstantValue(verifier);
      // A counter in a networked store: racing requests of one guest really interleave.
      addLatency(container, GuestRateLimiterToken, 3);
    },
  });
  return { api, client: engagementClient(api), verifier, clock, requests };
}

/** Every guest write route, as a request against a real target of the tenant. */
type GuestRoute = [string, (headers: Headers, query?: string) => Promise<{ status: number; body: any }>];

async function guestRoutes(world: World): Promise<[GuestRoute, GuestRoute, GuestRoute, GuestRoute, GuestRoute]> {
  const article = await world.client.article();
  const comment = await world.client.comment(article.id);
  const { api } = world;
  return [
    ['PUT /articles/{id}/reaction', (headers, q = '') => api.call('PUT', `/articles/${article.id}/reaction${q}`, { headers, body: { type: 'like' } })],
    ['DELETE /articles/{id}/reaction', (headers, q = '') => api.call('DELETE', `/articles/${article.id}/reaction${q}`, { headers })],
    ['POST /articles/{id}/comments', (headers, q = '') => api.call('POST', `/articles/${article.id}/comments${q}`, { headers, body: { content: 'Hi' } })],
    ['PUT /articles/comments/{commentId}/reaction', (headers, q = '') => api.call('PUT', `/articles/comments/${comment.id}/reaction${q}`, { headers, body: { type: 'dislike' } })],
    ['DELETE /articles/comments/{commentId}/reaction', (headers, q = '') => api.call('DELETE', `/articles/comments/${comment.id}/reaction${q}`, { headers })],
  ];
}

for (const storage of TEST_STORAGES) {
  describe(`Guest engagement over HTTP (storage: ${storage})`, () => {
    describe('on every guest write route', () => {
      let world: World;
      before(async () => {
        world = await startWorld(storage, { GUEST_REACTION_LIMIT: '3', GUEST_REACTION_WINDOW_SECONDS: '60' });
      });
      after(() => world.api.stop());

      it('answers the guest checks in order, then counts the admitted writes up to the limit', async () => {
        const routes = await guestRoutes(world);
        for (const [name, call] of routes) {
          const id = `guest-${name.length}-${name.includes('DELETE') ? 'd' : 'p'}-${name.includes('comments/') ? 'c' : 'a'}`;
          const cases: Array<[Headers, number, string]> = [
            [{ 'x-guest-id': id }, 401, 'captchaToken is required for guest engagement'],
            [{}, 401, 'captchaToken is required for guest engagement'],
            [{ 'x-captcha-token': 'forged' }, 400, 'Missing x-guest-id header'],
            [{ 'x-captcha-token': 'good-token', 'x-guest-id': 'short' }, 400, 'Missing x-guest-id header'],
            [guest(id, 'forged'), 401, 'captchaToken is invalid'],
            [guest(id, 'low-score'), 401, 'captchaToken is invalid'],
          ];
          for (const [headers, status, message] of cases) {
            const res = await call(headers);
            expect(res.status, `${name}: ${message}`).to.equal(status);
            expect(res.body).to.deep.equal({ success: false, statusCode: status, message, data: null });
          }
          for (let i = 0; i < 3; i += 1) expect((await call(guest(id, i === 1 ? 'high-score' : 'good-token'))).status, `${name} #${i + 1}`).to.be.within(200, 201);
          const over = await call(guest(id));
          expect(over.status, name).to.equal(429);
          expect(over.body).to.deep.equal({ success: false, statusCode: 429, message: LIMITED.message, data: null });
        }
      });

      it('reads the CAPTCHA token from the captchaToken query parameter, the header winning', async () => {
        const [, call] = (await guestRoutes(world))[0];
        const id = { 'x-guest-id': 'guest-query-01' };
        expect((await call(id, '?captchaToken=good-token')).status).to.equal(200);
        expect((await call({ ...id, 'x-captcha-token': 'forged' }, '?captchaToken=good-token')).body.message).to.equal('captchaToken is invalid');
        expect((await call({ ...id, 'x-captcha-token': 'good-token' }, '?captchaToken=forged')).status).to.equal(200);
        expect((await call(id, '?captchaToken=')).body.message).to.equal('captchaToken is required for guest engagement');
        const logged = JSON.stringify(world.requests.lines);
        expect(logged).not.to.contain('good-token');
      });

      it('answers a captchaToken given twice 400 query.captchaToken must be given only once, before the guest checks, the header still winning', async () => {
        world.verifier.calls.length = 0;
        const twice = '?captchaToken=good-token&captchaToken=good-token';
        for (const [name, call] of await guestRoutes(world)) {
          for (const headers of [{ 'x-guest-id': `guest-twice-${name.length}` }, {}] as Headers[]) {
            const res = await call(headers, twice);
            expect(res.status, name).to.equal(400);
            expect(res.body, name).to.deep.equal({
              success: false,
              statusCode: 400,
              message: 'Validation failed: query.captchaToken must be given only once',
              data: null,
              errors: [{ path: 'query.captchaToken', message: 'must be given only once' }],
            });
          }
        }
        expect(world.verifier.calls, 'no provider call for a repeated token').to.deep.equal([]);
        const [, put] = (await guestRoutes(world))[0];
        expect((await put(guest('guest-twice-header'), twice)).status, 'the header wins').to.equal(200);
        // A route that reads no token ignores it, repeated or not, as before.
        const comment = await world.client.comment((await world.client.article()).id);
        const summary = await world.api.call('GET', `/articles/comments/${comment.id}/reactionSummary${twice}`, { headers: { 'x-guest-id': 'guest-twice-reader' } });
        expect(summary.status).to.equal(200);
      });

      it('verifies the token with the default provider (recaptcha when CAPTCHA_PROVIDER_DEFAULT is unset)', async () => {
        world.verifier.calls.length = 0;
        const [, call] = (await guestRoutes(world))[1];
        await call(guest('guest-provider-1'));
        expect(world.verifier.calls).to.deep.equal([{ provider: 'recaptcha', token: 'good-token' }]);
      });

      it('does not limit users, nor the reaction summary, which needs no CAPTCHA', async () => {
        const routes = await guestRoutes(world);
        const [, put] = routes[0];
        for (let i = 0; i < 6; i += 1) expect((await put({ 'x-user-id': 'steady-user' })).status).to.equal(200);
        const article = await world.client.article();
        const comment = await world.client.comment(article.id);
        for (let i = 0; i < 6; i += 1) {
          const res = await world.api.call('GET', `/articles/comments/${comment.id}/reactionSummary`, { headers: { 'x-guest-id': 'guest-reader-77' } });
          expect(res.status).to.equal(200);
        }
        expect((await put(guest('guest-reader-77'))).status).to.equal(200);
      });
    });

    describe('the rate limit', () => {
      let world: World;
      beforeEach(async () => {
        world = await startWorld(storage, { GUEST_REACTION_LIMIT: '3', GUEST_REACTION_WINDOW_SECONDS: '60' });
      });
      afterEach(() => world.api.stop());

      it('counts every admitted guest write, even one that changes nothing or ends 404 or 403, across routes', async () => {
        const [[, putArticle], [, deleteArticle], [, comment]] = await guestRoutes(world);
        const closed = await world.client.article({ reactionsEnabled: false });
        const headers = guest('guest-counted-1');
        expect((await deleteArticle(headers)).status, 'nothing to remove').to.equal(200);
        expect((await world.api.call('PUT', `/articles/${closed.id}/reaction`, { headers, body: { type: 'like' } })).status).to.equal(403);
        expect((await world.api.call('DELETE', '/articles/0123456789abcdef01234567/reaction', { headers })).status).to.equal(404);
        expect((await comment(headers)).status).to.equal(429);
        expect((await putArticle(headers)).status).to.equal(429);
      });

      it('does not count requests refused before the limit (no token, no id, rejected token)', async () => {
        const [[, put]] = await guestRoutes(world);
        for (let i = 0; i < 5; i += 1) expect((await put(guest('guest-rejected-1', 'forged'))).status).to.equal(401);
        for (let i = 0; i < 3; i += 1) expect((await put(guest('guest-rejected-1'))).status).to.equal(200);
        expect((await put(guest('guest-rejected-1'))).status).to.equal(429);
      });

      it('limits each guest id of each tenant on its own', async () => {
        const [[, put]] = await guestRoutes(world);
        for (let i = 0; i < 3; i += 1) await put(guest('guest-busy-01'));
        expect((await put(guest('guest-busy-01'))).status).to.equal(429);
        expect((await put(guest('guest-other-01'))).status).to.equal(200);
        const headers = await world.client.bearer('editor', 'ed-b', 'tenant-b');
        const foreign = (await world.api.call('POST', '/articles/create', { key: TEST_KEYS.b, headers, body: { title: 'B' } })).body.data.article;
        const res = await world.api.call('PUT', `/articles/${foreign.id}/reaction`, { key: TEST_KEYS.b, headers: guest('guest-busy-01'), body: { type: 'like' } });
        expect(res.status).to.equal(200);
      });

      it('starts counting again when the fixed window turns', async () => {
        const [[, put]] = await guestRoutes(world);
        world.clock.set('2026-05-01T10:01:00.000Z');
        for (let i = 0; i < 3; i += 1) expect((await put(guest('guest-window-1'))).status).to.equal(200);
        world.clock.set('2026-05-01T10:01:59.999Z');
        expect((await put(guest('guest-window-1'))).status).to.equal(429);
        world.clock.set('2026-05-01T10:02:00.000Z');
        for (let i = 0; i < 3; i += 1) expect((await put(guest('guest-window-1'))).status).to.equal(200);
        expect((await put(guest('guest-window-1'))).status).to.equal(429);
      });

      it('admits exactly the limit when one guest’s requests race', async () => {
        const [[, put]] = await guestRoutes(world);
        const answers = await Promise.all(Array.from({ length: 12 }, () => put(guest('guest-racing-1'))));
        expect(answers.filter((r) => r.status === 200)).to.have.length(3);
        expect(answers.filter((r) => r.status === 429)).to.have.length(9);
      });
    });

    describe('with the default settings', () => {
      let world: World;
      before(async () => {
        world = await startWorld(storage, { CAPTCHA_PROVIDER_DEFAULT: 'turnstile' });
      });
      after(() => world.api.stop());

      it('admits 30 guest writes in a window and answers the 31st 429', async () => {
        const [[, put], [, remove]] = await guestRoutes(world);
        for (let i = 0; i < 30; i += 1) expect((await (i % 2 ? remove : put)(guest('guest-default-1'))).status, `#${i + 1}`).to.equal(200);
        const over = await put(guest('guest-default-1'));
        expect(over.status).to.equal(LIMITED.status);
        expect(over.body.message).to.equal(LIMITED.message);
        world.clock.advance(600_000);
        expect((await put(guest('guest-default-1'))).status).to.equal(200);
      });

      it('verifies with CAPTCHA_PROVIDER_DEFAULT', async () => {
        world.verifier.calls.length = 0;
        const [[, put]] = await guestRoutes(world);
        await put(guest('guest-provider-2'));
        expect(world.verifier.calls.map((c) => c.provider)).to.deep.equal(['turnstile']);
      });
    });
  });
}
