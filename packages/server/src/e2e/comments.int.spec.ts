/**
 * §2.8 over HTTP: comment creation and approval, reactions on approved comments, and
 * GET /articles/comments/{commentId}/reactionSummary.
 */
import { expect } from 'chai';
import { CommentRepositoryToken, ReactionRepositoryToken } from '@cms/core';
import { engagementClient, guest, type EngagementClient } from '../testing/engagement-client.js';
import { addLatency } from '../testing/latency-proxy.js';
import { startTestService, TEST_STORAGES, type TestService } from '../testing/test-service.js';

const UNKNOWN = '0123456789abcdef01234567';
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const user = (id: string) => ({ 'x-user-id': id });

for (const storage of TEST_STORAGES) {
  describe(`Comments over HTTP (storage: ${storage})`, () => {
    let api: TestService;
    let client: EngagementClient;
    before(async () => {
      // Store calls take a few milliseconds, so concurrent requests really interleave.
      api = await startTestService(
        { GUEST_REACTION_LIMIT: '1000' },
        {
          configure: (c) => {
            addLatency(c, CommentRepositoryToken);
            addLatency(c, ReactionRepositoryToken, 4, 7);
          },
          storage,
        },
      );
      client = engagementClient(api);
    });
    after(() => api.stop());

    const summary = (id: string, headers: Record<string, string> = {}) => api.call('GET', `/articles/comments/${id}/reactionSummary`, { headers });
    const react = (id: string, headers: Record<string, string>, type: 'like' | 'dislike' | null) =>
      type === null
        ? api.call('DELETE', `/articles/comments/${id}/reaction`, { headers })
        : api.call('PUT', `/articles/comments/${id}/reaction`, { headers, body: { type } });

    describe('POST /articles/{id}/comments', () => {
      it('answers 201 with a pending comment for a user', async () => {
        const article = await client.article();
        const res = await api.call('POST', `/articles/${article.id}/comments`, { headers: user('reader-1'), body: { content: 'Great read', authorName: 'Reader' } });
        expect(res.status).to.equal(201);
        expect(res.body.message).to.equal('Comment created successfully');
        const comment = res.body.data.comment;
        expect(Object.keys(comment)).to.have.members(['id', 'articleId', 'content', 'authorName', 'status', 'createdBy', 'likes', 'dislikes', 'createdAt', 'updatedAt']);
        expect(comment).to.include({ articleId: article.id, content: 'Great read', authorName: 'Reader', status: 'pending', createdBy: 'reader-1', likes: 0, dislikes: 0 });
        expect(comment.createdAt).to.match(ISO_MS);
      });

      it('answers 201 for a guest, without showing its guest id', async () => {
        const article = await client.article();
        const res = await api.call('POST', `/articles/${article.id}/comments`, { headers: guest('guest-writer-01'), body: { content: 'Hi' } });
        expect(res.status).to.equal(201);
        expect(res.body.data.comment).to.include({ status: 'pending', createdBy: null, authorName: null });
        expect(JSON.stringify(res.body)).not.to.contain('guest-writer-01');
      });

      it('answers in order 400 Invalid article id → guest checks → body → 404 Article not found', async () => {
        const cases: Array<[string, Record<string, string>, unknown, number, string]> = [
          ['bad', {}, {}, 400, 'Invalid article id'],
          [UNKNOWN, {}, {}, 401, 'captchaToken is required for guest engagement'],
          [UNKNOWN, { 'x-captcha-token': 'tok' }, {}, 400, 'Missing x-guest-id header'],
          [UNKNOWN, user('reader-1'), {}, 400, 'Validation failed: body.content is required'],
          [UNKNOWN, user('reader-1'), { content: 'x'.repeat(5001) }, 400, 'Validation failed: body.content must NOT have more than 5000 characters'],
          [UNKNOWN, user('reader-1'), { content: '  ' }, 400, 'Validation failed: body.content must not be blank'],
          [UNKNOWN, user('reader-1'), { content: 'ok', rating: 5 }, 400, 'Validation failed: body.rating is not allowed'],
          [UNKNOWN, user('reader-1'), { content: 'ok' }, 404, 'Article not found'],
        ];
        for (const [id, headers, body, status, message] of cases) {
          const res = await api.call('POST', `/articles/${id}/comments`, { headers, body });
          expect(res.status, message).to.equal(status);
          expect(res.body.message).to.equal(message);
        }
      });
    });

    describe('PUT /articles/comments/{commentId}/approve', () => {
      it('answers 200 with the approved comment, also when approved again', async () => {
        const article = await client.article();
        const comment = await client.comment(article.id, { approve: false });
        for (let i = 0; i < 2; i += 1) {
          const res = await api.call('PUT', `/articles/comments/${comment.id}/approve`, { headers: await client.bearer('admin') });
          expect(res.status).to.equal(200);
          expect(res.body.message).to.equal('Comment approved successfully');
          expect(res.body.data.comment).to.include({ id: comment.id, status: 'approved' });
        }
      });

      it('answers 401, 403, 400 Invalid comment id and 404 Comment not found in that order', async () => {
        const cases: Array<[string, () => Promise<Record<string, string>>, number, string]> = [
          ['bad', async () => user('editor-1'), 401, 'Unauthorized'],
          ['bad', () => client.bearer('author'), 403, 'Forbidden'],
          ['bad', () => client.bearer('editor'), 400, 'Invalid comment id'],
          [UNKNOWN, () => client.bearer('editor'), 404, 'Comment not found'],
        ];
        for (const [id, headers, status, message] of cases) {
          const res = await api.call('PUT', `/articles/comments/${id}/approve`, { headers: await headers() });
          expect(res.status).to.equal(status);
          expect(res.body).to.deep.equal({ success: false, statusCode: status, message, data: null });
        }
      });
    });

    describe('GET /articles/comments/{commentId}/reactionSummary', () => {
      it('answers 200 with stored totals and the caller’s own reaction: user, guest without CAPTCHA, or null', async () => {
        const article = await client.article();
        const comment = await client.comment(article.id);
        await react(comment.id, user('reader-1'), 'like');
        await react(comment.id, user('reader-2'), 'like');
        await react(comment.id, guest('guest-reader-1'), 'dislike');
        const res = await summary(comment.id, user('reader-1'));
        expect(res.status).to.equal(200);
        expect(res.body).to.deep.equal({
          success: true,
          statusCode: 200,
          message: 'Comment reaction summary retrieved successfully',
          data: { commentId: comment.id, likes: 2, dislikes: 1, userReaction: 'like' },
        });
        expect((await summary(comment.id, { 'x-guest-id': 'guest-reader-1' })).body.data.userReaction).to.equal('dislike');
        expect((await summary(comment.id, await client.bearer('member', 'reader-2'))).body.data.userReaction).to.equal('like');
        expect((await summary(comment.id, { 'x-guest-id': 'guest-reader-9' })).body.data.userReaction).to.equal(null);
        expect((await summary(comment.id.toUpperCase())).body.data).to.deep.equal({ commentId: comment.id, likes: 2, dislikes: 1, userReaction: null });
        expect((await summary(comment.id, { 'x-guest-id': 'bad' })).body.data.userReaction).to.equal(null);
      });

      it('answers 400 Invalid comment id, and 404 Comment not found for unknown and pending comments', async () => {
        const article = await client.article();
        const pending = await client.comment(article.id, { approve: false });
        const malformed = await summary('nope');
        expect(malformed.status).to.equal(400);
        expect(malformed.body).to.deep.equal({ success: false, statusCode: 400, message: 'Invalid comment id', data: null });
        for (const id of [UNKNOWN, pending.id]) {
          const res = await summary(id);
          expect(res.status).to.equal(404);
          expect(res.body).to.deep.equal({ success: false, statusCode: 404, message: 'Comment not found', data: null });
        }
      });
    });

    describe('PUT and DELETE /articles/comments/{commentId}/reaction', () => {
      it('saves, switches and removes, answering the summary after each change', async () => {
        const article = await client.article();
        const comment = await client.comment(article.id);
        const saved = await react(comment.id, user('reader-1'), 'like');
        expect(saved.status).to.equal(200);
        expect(saved.body.message).to.equal('Reaction saved successfully');
        expect(saved.body.data).to.deep.equal({ commentId: comment.id, likes: 1, dislikes: 0, userReaction: 'like' });
        expect((await react(comment.id, user('reader-1'), 'dislike')).body.data).to.deep.equal({ commentId: comment.id, likes: 0, dislikes: 1, userReaction: 'dislike' });
        const removed = await react(comment.id, user('reader-1'), null);
        expect(removed.body.message).to.equal('Reaction removed successfully');
        expect(removed.body.data).to.deep.equal({ commentId: comment.id, likes: 0, dislikes: 0, userReaction: null });
        expect((await react(comment.id, user('reader-1'), null)).status).to.equal(200);
      });

      it('answers in order 400 → guest checks → 404 (unknown or pending) → 403', async () => {
        const article = await client.article();
        const pending = await client.comment(article.id, { approve: false });
        const closedArticle = await client.article({ reactionsEnabled: false });
        const closed = await client.comment(closedArticle.id);
        const cases: Array<[string, Record<string, string>, number, string]> = [
          ['bad', {}, 400, 'Invalid comment id'],
          [UNKNOWN, {}, 401, 'captchaToken is required for guest engagement'],
          [UNKNOWN, { 'x-captcha-token': 'tok' }, 400, 'Missing x-guest-id header'],
          [UNKNOWN, guest('guest-order-01'), 404, 'Comment not found'],
          [pending.id, user('reader-1'), 404, 'Comment not found'],
          [closed.id, user('reader-1'), 403, 'Reactions are disabled for this article'],
        ];
        for (const [id, headers, status, message] of cases) {
          for (const type of ['like', null] as const) {
            const res = await react(id, headers, type);
            expect(res.status, `${message} (${String(type)})`).to.equal(status);
            expect(res.body).to.deep.equal({ success: false, statusCode: status, message, data: null });
          }
        }
      });

      it('answers 403 when the comment’s category or sub-category disables reactions', async () => {
        const parent = await client.category({ name: 'P', reactionsEnabled: false });
        const viaCategory = await client.comment((await client.article({ categoryId: parent.id })).id);
        const open = await client.category({ name: 'O' });
        const sub = await client.category({ name: 'S', parentId: open.id, reactionsEnabled: false });
        const viaSub = await client.comment((await client.article({ categoryId: open.id, subCategoryId: sub.id })).id);
        for (const comment of [viaCategory, viaSub]) expect((await react(comment.id, user('reader-1'), 'like')).status).to.equal(403);
      });

      it('counts 30 callers reacting at once and then changing at once, exactly', async () => {
        const article = await client.article();
        const comment = await client.comment(article.id);
        const callers = Array.from({ length: 30 }, (_, i) => (i % 2 ? user(`c-racer-${i}`) : guest(`guest-c-racer-${i}`)));
        await Promise.all(callers.map((headers) => react(comment.id, headers, 'like')));
        expect((await summary(comment.id)).body.data).to.include({ likes: 30, dislikes: 0 });
        const answers = await Promise.all(callers.map((headers, i) => react(comment.id, headers, i < 10 ? 'dislike' : i < 25 ? null : 'like')));
        expect(answers.map((r) => r.status)).to.deep.equal(Array(30).fill(200));
        expect((await summary(comment.id)).body.data).to.include({ likes: 5, dislikes: 10 });
      });

      it('counts one caller’s ten concurrent likes once', async () => {
        const article = await client.article();
        const comment = await client.comment(article.id);
        const answers = await Promise.all(Array.from({ length: 10 }, () => react(comment.id, user('c-eager-1'), 'like')));
        expect(answers.map((r) => r.status)).to.deep.equal(Array(10).fill(200));
        expect((await summary(comment.id, user('c-eager-1'))).body.data).to.deep.equal({ commentId: comment.id, likes: 1, dislikes: 0, userReaction: 'like' });
      });
    });
  });
}
