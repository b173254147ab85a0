/** Reading a whole cursor-paged list over HTTP (CONTRACT §6.1), for the specs that check lists. */
import { expect } from 'chai';
import type { TestService } from './test-service.js';

export interface PageThroughOptions {
  readonly headers?: Record<string, string>;
  /** Run after each page, before the next is asked for (to insert or delete meanwhile). */
  readonly between?: () => Promise<void>;
}

/** Every page of a list, following `nextCursor` until null; the ids in order. Each page must answer 200. */
export async function pageThrough(api: TestService, path: string, plural: string, limit: number, options: PageThroughOptions = {}): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const res: { status: number; body: any } = await api.call('GET', `${path}${separator}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
      headers: options.headers ?? {},
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    ids.push(...res.body.data[plural].map((record: { id: string }) => record.id));
    cursor = res.body.data.nextCursor;
    await options.between?.();
  } while (cursor !== null);
  return ids;
}
