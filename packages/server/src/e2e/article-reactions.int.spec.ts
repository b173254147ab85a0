/** §2.7 over HTTP: PUT and DELETE /articles/{id}/reaction — order of checks, totals, concurrency. */
import { expect } from 'chai';
import { ArticleRepositoryToken, CaptchaVerifierToken, ReactionRepositoryToken, StaticCaptchaVerifier } from '@cms/core';
import type { Container } from 'inversify';
import { engagementClient, guest, type EngagementClient } from '../testing/engagement-client.js';
import { addLatency } from '../testing/latency-proxy.js';
import { startTestService, TEST_STORAGES, type TestService } from '../testing/test-service.js';
import { REACTION_REFUSALS } from './invalid-inputs.js';

const UNKNOWN = '0123456789abcdef01234567';
const user = (id: string) => ({ 'x-user-id': id });

for (const storage of TEST_STORAGES) {
  describe(`Article reactions over HTTP (storage: ${storage})`, () => {
    let api: TestService;
    let client: EngagementClient;
    before(async () => {
      const verifier = new StaticCaptchaVerifier(new Map([['captcha-ok', undefined]]));
      // Store calls take a few milliseconds, so concurrent requests really interleave.
      const configure = (c: Container) => {
        c.rebind(CaptchaVerifierToken).toConstantValue(verifier);
        addLatency(c, ArticleRepositoryToken);
        addLatency(c, ReactionRepositoryToken, 4, 7);
      };
      api = await startTestService({ GUEST_REACTION_LIMIT: '1000' }, { configure, storage });
      client = engagementClient(api);
    });
    after(() => api.stop());

    const put = (id: string, headers: Record<string, string>, body: unknown = { type: 'like' }) =>
      api.call('PUT', `/articles/${id}/reaction`, { headers, body });
    const del = (id: string, headers: Record<string, string>) => api.call('DELETE', `/articles/${id}/reaction`, { headers });
    const totalsOf = async (id: string) => {
      const { likes, dislikes } = (await api.call('GET', `/articles/getById/${id}`)).body.data.article;
      return { likes, dislikes };
    };

    describe('when a caller reacts', () => {
      it('saves, switches and removes, answering the totals after each change', async () => {
        const { id } = await client.article();
        const saved = await put(id, user('reader-1'));
        expect(saved.status).to.equal(200);
        expect(saved.body).to.deep.equal({
          success: true,
          statusCode: 200,
          message: 'Reaction saved successfully',
          data: { articleId: id, likes: 1, dislikes: 0 },
        });
        expect((await put(id, guest('guest-aaaa-0001'), { type: 'dislike' })).body.data).to.deep.equal({ articleId: id, likes: 1, dislikes: 1 });
        expect((await put(id, user('reader-1'), { type: 'dislike' })).body.data).to.deep.equal({ articleId: id, likes: 0, dislikes: 2 });
        const removed = await del(id, user('reader-1'));
        expect(removed.status).to.equal(200);
        expect(removed.body).to.deep.equal({
          success: true,
          statusCode: 200,
          message: 'Reaction removed successfully',
          data: { articleId: id, likes: 0, dislikes: 1 },
        });
        expect(await totalsOf(id)).to.deep.equal({ likes: 0, dislikes: 1 });
      });

      it('answers 200 with unchanged totals when there is no reaction to remove, never going negative', async () => {
        const { id } = await client.article();
        for (const headers of [user('nobody-1'), guest('guest-none-0001')]) {
          const res = await del(id, headers);
          expect(res.status).to.equal(200);
          expect(res.body.data).to.deep.equal({ articleId: id, likes: 0, dislikes: 0 });
        }
      });

      it('takes the user from a bearer token, and keeps a user and a guest with the same id apart', async () => {
        const { id } = await client.article();
        await put(id, await client.bearer('member', 'same-id-0001'));
        await put(id, user('same-id-0001'));
        expect((await put(id, guest('same-id-0001'))).body.data).to.include({ likes: 2 });
      });

      it('answers the canonical article id for an upper-case id', async () => {
        const { id } = await client.article();
        expect((await put(id.toUpperCase(), user('reader-1'))).body.data.articleId).to.equal(id);
      });
    });

    describe('when a check fails', () => {
      const orderCases: Array<[string, (id: string) => Promise<{ status: number; body: any }>, number, string]> = [
        ['a malformed id from a guest with nothing', () => put('nope', {}), 400, 'Invalid article id'],
        ['a malformed id on DELETE', () => del('abc', {}), 400, 'Invalid article id'],
        ['a guest without CAPTCHA token on an unknown article', () => put(UNKNOWN, { 'x-guest-id': 'guest-0001-x' }), 401, 'captchaToken is required for guest engagement'],
        ['a caller with no user and no guest id', () => del(UNKNOWN, {}), 401, 'captchaToken is required for guest engagement'],
        ['a guest without id', () => put(UNKNOWN, { 'x-captcha-token': 'captcha-ok' }), 400, 'Missing x-guest-id header'],
        ['a guest with a malformed id', () => put(UNKNOWN, guest('short')), 400, 'Missing x-guest-id header'],
        ['a guest with a rejected token on an unknown article', () => put(UNKNOWN, guest('guest-0001-x', 'forged')), 401, 'captchaToken is invalid'],
        ['a user on an unknown article', () => put(UNKNOWN, user('reader-1')), 404, 'Article not found'],
        ['a guest on an unknown article', () => del(UNKNOWN, guest('guest-0001-x')), 404, 'Article not found'],
      ];
      for (const [name, request, status, message] of orderCases) {
        it(`answers ${status} ${message} for ${name}`, async () => {
          const res = await request(UNKNOWN);
          expect(res.status).to.equal(status);
          expect(res.body).to.deep.equal({ success: false, statusCode: status, message, data: null });
        });
      }

      it('answers 400 for a missing or unknown reaction type', async () => {
        const { id } = await client.article();
        for (const [body, message] of REACTION_REFUSALS) {
          const res = body === null ? await api.call('PUT', `/articles/${id}/reaction`, { headers: user('reader-1') }) : await put(id, user('reader-1'), body);
          expect(res.status).to.equal(400);
          expect(res.body.message).to.equal(message);
        }
        expect(await totalsOf(id)).to.deep.equal({ likes: 0, dislikes: 0 });
      });

      describe('when reactions are disabled', () => {
        const setups: Array<[string, () => Promise<string>]> = [
          ['on the article', async () => (await client.article({ reactionsEnabled: false })).id],
          ['on its category', async () => (await client.article({ categoryId: (await client.category({ name: 'C', reactionsEnabled: false })).id })).id],
          [
            'on its sub-category',
            async () => {
              const parent = await client.category({ name: 'P' });
              const sub = await client.category({ name: 'S', parentId: parent.id, reactionsEnabled: false });
              return (await client.article({ categoryId: parent.id, subCategoryId: sub.id })).id;
            },
          ],
        ];
        for (const [where, setup] of setups) {
          it(`answers 403 ${where}, for PUT and DELETE, users and guests, and counts nothing`, async () => {
            const id = await setup();
            for (const request of [() => put(id, user('reader-1')), () => del(id, user('reader-1')), () => put(id, guest('guest-dis-0001'))]) {
              const res = await request();
              expect(res.status).to.equal(403);
              expect(res.body).to.deep.equal({ success: false, statusCode: 403, message: 'Reactions are disabled for this article', data: null });
            }
            expect(await totalsOf(id)).to.deep.equal({ likes: 0, dislikes: 0 });
          });
        }

        it('answers 404 before 403: an unknown id is not found whatever the settings', async () => {
          expect((await del(UNKNOWN, user('reader-1'))).status).to.equal(404);
        });

        it('answers the guest checks before 403', async () => {
          const { id } = await client.article({ reactionsEnabled: false });
          expect((await put(id, {})).status).to.equal(401);
        });
      });
    });

    describe('when paths look alike', () => {
      it('routes /articles/comments/... to comments and /articles/{id}/... to articles', async () => {
        const comment = await api.call('PUT', `/articles/comments/${UNKNOWN}/reaction`, { headers: user('reader-1'), body: { type: 'like' } });
        expect(comment.body.message).to.equal('Comment not found');
        const article = await api.call('PUT', `/articles/${UNKNOWN}/reaction`, { headers: user('reader-1'), body: { type: 'like' } });
        expect(article.body.message).to.equal('Article not found');
        const commentsOfComments = await api.call('POST', '/articles/comments/comments', { headers: user('reader-1'), body: { content: 'x' } });
        expect(commentsOfComments.body.message).to.equal('Invalid article id');
      });

      it('answers 405 with Allow for another method on a reaction path', async () => {
        const res = await api.call('GET', `/articles/${UNKNOWN}/reaction`);
        expect(res.status).to.equal(405);
        expect(res.headers.get('allow')).to.contain('PUT').and.to.contain('DELETE');
      });
    });

    describe('when requests race', () => {
      it('counts 30 callers liking at once, then 30 switching, removing or repeating at once, exactly', async () => {
        const { id } = await client.article();
        const callers = Array.from({ length: 30 }, (_, i) => (i % 2 ? user(`racer-${i}`) : guest(`guest-racer-${i}`)));
        const first = await Promise.all(callers.map((headers) => put(id, headers)));
        expect(first.map((r) => r.status)).to.deep.equal(Array(30).fill(200));
        expect(await totalsOf(id)).to.deep.equal({ likes: 30, dislikes: 0 });

        const second = await Promise.all(
          callers.map((headers, i) => (i % 3 === 0 ? put(id, headers, { type: 'dislike' }) : i % 3 === 1 ? del(id, headers) : put(id, headers))),
        );
        expect(second.map((r) => r.status)).to.deep.equal(Array(30).fill(200));
        for (const res of [...first, ...second]) {
          expect(res.body.data.likes).to.be.within(0, 30);
          expect(res.body.data.dislikes).to.be.within(0, 30);
        }
        expect(await totalsOf(id)).to.deep.equal({ likes: 10, dislikes: 10 });
      });

      it('counts one caller’s ten concurrent likes once', async () => {
        const { id } = await client.article();
        const answers = await Promise.all(Array.from({ length: 10 }, () => put(id, user('eager-1'))));
        expect(answers.map((r) => r.status)).to.deep.equal(Array(10).fill(200));
        expect(await totalsOf(id)).to.deep.equal({ likes: 1, dislikes: 0 });
      });

      it('ends with totals equal to the reactions held after one caller races likes, dislikes and removals', async () => {
        const { id } = await client.article();
        const requests = Array.from({ length: 40 }, (_, i) =>
          i % 3 === 0 ? del(id, user('flipper-1')) : put(id, user('flipper-1'), { type: i % 3 === 1 ? 'like' : 'dislike' }),
        );
        const answers = await Promise.all(requests);
        // While they race, an answer may show a moment between two of the caller's own changes;
        // it is never negative. Once all have finished, the totals are the one reaction held.
        for (const res of answers) {
          expect(res.body.data.likes).to.be.at.least(0);
          expect(res.body.data.dislikes).to.be.at.least(0);
        }
        const after = await totalsOf(id);
        expect(after.likes + after.dislikes).to.be.within(0, 1);
        const settle = await del(id, user('flipper-1'));
        expect(settle.body.data).to.deep.equal({ articleId: id, likes: 0, dislikes: 0 });
      });
    });
  });
}
