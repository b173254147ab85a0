/**
 * Shortcuts for HTTP tests of authors, articles, comments and reactions: bearer headers per
 * role, guest headers, and one-call creation of the records a test needs.
 */
import type { TestService } from './test-service.js';

export type Headers = Record<string, string>;

export interface EngagementClient {
  /** Bearer headers for a user of tenant a (or `tenant`) with a role. */
  bearer(role: 'admin' | 'editor' | 'author' | 'member', sub?: string, tenant?: string): Promise<Headers>;
  category(body: Record<string, unknown>, headers?: Headers): Promise<{ id: string }>;
  article(body?: Record<string, unknown>, headers?: Headers): Promise<{ id: string }>;
  /** A comment on the article, approved unless `approve: false`. */
  comment(articleId: string, options?: { approve?: boolean; headers?: Headers }): Promise<{ id: string }>;
}

/** Headers of a guest: its id and a CAPTCHA token (the default verifier accepts any non-empty one). */
export function guest(id: string, token = 'captcha-ok'): Headers {
  return { 'x-guest-id': id, 'x-captcha-token': token };
}

export function engagementClient(api: TestService): EngagementClient {
  const created = async (method: string, path: string, body: unknown, headers: Headers, key: string) => {
    const res = await api.call(method, path, { headers, body });
    if (res.status !== 201 && res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.data[key] as { id: string };
  };
  const client: EngagementClient = {
    async bearer(role, sub = `${role}-1`, tenant) {
      return { authorization: `Bearer ${await api.token({ sub, role, ...(tenant ? { tenant } : {}) })}` };
    },
    async category(body, headers) {
      return created('POST', '/categories/create', body, headers ?? (await client.bearer('editor')), 'category');
    },
    async article(body = {}, headers) {
      return created('POST', '/articles/create', { title: 'An article', ...body }, headers ?? (await client.bearer('editor')), 'article');
    },
    async comment(articleId, options = {}) {
      const comment = await created('POST', `/articles/${articleId}/comments`, { content: 'A comment' }, options.headers ?? { 'x-user-id': 'commenter-1' }, 'comment');
      if (options.approve !== false) await created('PUT', `/articles/comments/${comment.id}/approve`, undefined, await client.bearer('editor'), 'comment');
      return comment;
    },
  };
  return client;
}
