/**
 * Walks a list (CONTRACT §6.1) page by page: the first page with the caller's filters, then each
 * `nextCursor` sent back as `cursor` with the same filters, until it is null. Typed from `paths`,
 * so only a list route (a GET that takes `cursor`) is accepted, its filters are checked, and each
 * page's records have the list's record type.
 */
import type { CmsClient } from './index.js';
import type { components, paths } from './generated/openapi.js';

type ListOperation<P extends keyof paths> = paths[P] extends { get: infer O extends { parameters: { query?: unknown } } } ? O : never;
type Query<P extends keyof paths> = NonNullable<ListOperation<P>['parameters']['query']>;

/** The paths whose GET takes a `cursor`: the lists. */
export type ListPath = {
  [P in keyof paths]: [Query<P>] extends [never] ? never : 'cursor' extends keyof Query<P> ? P : never;
}[keyof paths];

/** A list's parameters as `params` of its GET, without the cursor, which the walk sends. */
export type ListParams<P extends ListPath> = Omit<ListOperation<P>['parameters'], 'query' | 'cookie'> & { query?: Omit<Query<P>, 'cursor'> };

type PageData<P extends ListPath> = ListOperation<P> extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } } ? D : never;
/** The records of one page of list `P` (`forms` of `/forms/list`, …). */
export type ListRecords<P extends ListPath> = PageData<P>[Exclude<keyof PageData<P>, 'nextCursor'>];

export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];

/** An error answer met while walking: its status and, when the service sent it, its envelope. */
export class CmsAnswerError extends Error {
  override readonly name = 'CmsAnswerError';
  constructor(
    readonly status: number,
    /** The error envelope; null when the answer was not one (a proxy's page). */
    readonly envelope: ErrorEnvelope | null,
  ) {
    super(envelope?.message ?? `HTTP ${status}`);
  }
}

/**
 * Yields the records of each page of list `path`, the filters in `params.query` kept on every
 * page. An error answer (a 400 `Invalid cursor`, a 404 of the record the list is under) ends the
 * walk with a `CmsAnswerError`.
 *
 * ```ts
 * for await (const forms of listPages(cms, '/forms/list', { query: { limit: 50, isActive: true } })) {
 *   for (const form of forms) console.log(form.slug);
 * }
 * ```
 */
export async function* listPages<P extends ListPath>(
  client: CmsClient,
  path: P,
  ...[params]: {} extends ListParams<P> ? [params?: ListParams<P>] : [params: ListParams<P>]
): AsyncGenerator<ListRecords<P>, void, undefined> {
  // openapi-fetch's call signature cannot be resolved for a path still generic here; the types of
  // what goes in and comes out are the ones declared above.
  const get = client.GET as unknown as (path: string, init: { params: object }) => Promise<{ data?: { data: Record<string, unknown> }; error?: unknown; response: Response }>;
  let cursor: string | null = null;
  do {
    const query: object = { ...params?.query, ...(cursor === null ? {} : { cursor }) };
    const { data, error, response } = await get(path, { params: { ...params, query } });
    if (data === undefined) throw new CmsAnswerError(response.status, isEnvelope(error) ? error : null);
    const { nextCursor, ...records } = data.data;
    yield Object.values(records)[0] as ListRecords<P>;
    cursor = nextCursor as string | null;
  } while (cursor !== null);
}

function isEnvelope(error: unknown): error is ErrorEnvelope {
  return typeof error === 'object' && error !== null && (error as { success?: unknown }).success === false;
}

/**
 * Each kind of record by name, as its list answers it: CONTRACT §6.1 gives every listed record
 * the shape of its kind's single read, so a form listed and a form read are both a `Form`.
 */
export type Form = ListRecords<'/forms/list'>[number];
export type Submission = ListRecords<'/forms/{id}/submissions'>[number];
export type Article = ListRecords<'/articles/list'>[number];
export type Category = ListRecords<'/categories/list'>[number];
export type Author = ListRecords<'/authors/list'>[number];
export type Comment = ListRecords<'/articles/{id}/comments'>[number];
export type Webhook = ListRecords<'/webhooks/list'>[number];
