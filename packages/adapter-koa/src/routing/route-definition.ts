/**
 * A route is declared once: its path, who may call it, its JSON Schemas and its handler. The
 * same declaration drives request validation and the OpenAPI document.
 */
import type { Access, Caller, ErrorCode } from '@cms/core';
import type { InputLocation } from '../http/input-paths.js';

export type JsonSchema = Record<string, unknown>;
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteAccess {
  /**
   * Who may call: the use case's own declaration (`CreateArticle.access`), never written here.
   * A user or role rule is checked right after the credentials (core's `checkAccess`, which the
   * use case runs again); guest engagement is admitted by the use case itself, after the id
   * check, and the route reads its query and body only when the use case asks (`readBody`).
   */
  readonly rule?: Access;
  /** The route reads a bearer token when one is sent (documented as optional security). */
  readonly readsBearer?: boolean;
  /** Outside guest engagement, the route reads `x-guest-id` (whose own reaction a summary shows). */
  readonly readsGuestId?: boolean;
  /** Outside guest engagement, the route reads a CAPTCHA token (a form's gate): header `x-captcha-token`, else query `captchaToken`. */
  readonly readsCaptchaToken?: boolean;
  /** No API key needed (only the OpenAPI document is like this). */
  readonly public?: boolean;
}

export interface RouteInput<B, P, Q> {
  readonly caller: Caller;
  readonly params: P;
  readonly query: Q;
  /** The body, read and checked before the handler; `undefined` on guest-engagement routes, which use `readBody`. */
  readonly body: B;
  /**
   * Guest-engagement routes only: checks the query, reads the body and checks it, once, when
   * called: what the use case calls after admitting the caller, so a refused guest's body is
   * never read. Elsewhere it rejects (the body is `body`).
   */
  readonly readBody: () => Promise<B>;
  /** Header values the handler may need (a CAPTCHA token is read by the credentials instead); an empty one is absent. */
  readonly header: (name: string) => string | undefined;
  /** `If-Match` as sent on a route that declares it (`ifMatch`), an empty value kept (it names no tag, so it matches no record). */
  readonly ifMatch: string | undefined;
  /**
   * The caller's CAPTCHA token (header `x-captcha-token`, else query `captchaToken`), users
   * included, on a route that reads one (`readsCaptchaToken`, guest engagement); else undefined.
   */
  readonly captchaToken: string | undefined;
  /** The route's body schema as a check, for use cases that check the body later in their order (`bodyCheckedBy: 'use-case'`). */
  readonly checkBody: (body: unknown) => void;
  /** The route's query schema as a check of `query`, for use cases that check it later in their order (`queryCheckedBy: 'use-case'`). */
  readonly checkQuery: () => void;
}

export interface RouteDefinition<B = any, P = any, Q = any> {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** Relative to the base path, Koa style: `/authors/delete/:id`. */
  readonly path: string;
  readonly summary: string;
  readonly tags: readonly string[];
  readonly access?: RouteAccess;
  readonly params?: JsonSchema;
  /** The code answered when the path parameters fail their schema (default: validation 400). */
  readonly invalidParams?: ErrorCode;
  readonly query?: JsonSchema;
  /** Body schema; `bodyRequired: false` lets an absent body through as `undefined`. */
  readonly body?: JsonSchema;
  readonly bodyRequired?: boolean;
  /**
   * The operation drops body keys it does not know instead of refusing them (§2.1's dashboard): a
   * `__proto__` key is dropped with them, as it is read (`JsonBodyReader`). Elsewhere a body
   * holding one is refused (400 `Invalid JSON body`, decision 0787).
   */
  readonly dropsUnknownKeys?: boolean;
  /**
   * `use-case`: the body schema only documents the body; the use case checks it, at the point
   * where the contract's order of checks puts it (after lookups and gates). Default `pipeline`.
   */
  readonly bodyCheckedBy?: 'pipeline' | 'use-case';
  /**
   * Where a body that is not JSON is refused (400 `Invalid JSON body`): by default when it is read,
   * before the handler; `body-check` when the use case calls `checkBody`, at the body step of its
   * order (an update's comes after its 404 and 412, §6.3). Such a route's use case must call
   * `checkBody`. The body is still read first; 413 and 415 still come when it is read.
   */
  readonly invalidJsonAt?: 'read' | 'body-check';
  /** As `bodyCheckedBy`, for the query: `use-case` for a list under a record, whose 400 and 404 come first (§6.1). */
  readonly queryCheckedBy?: 'pipeline' | 'use-case';
  /** Where the use case's input comes from, naming core's validation paths (default: `body` when the route has one, else `query`). */
  readonly inputFrom?: InputLocation;
  /** The property of the use case's input that carries the body as sent (`reaction`): its domain paths are the body's. */
  readonly bodyAt?: string;
  readonly success: {
    readonly status: number;
    readonly message: string;
    readonly data?: JsonSchema;
    /** Media type → schema, for a route that answers a `StreamedAnswer` instead of the envelope. */
    readonly streamed?: Readonly<Record<string, JsonSchema>>;
    /** Headers of the success answer besides the request id and the entity tag (a `StreamedAnswer`'s), as the document declares them. */
    readonly headers?: Readonly<Record<string, { readonly description: string; readonly schema: JsonSchema }>>;
  };
  /** Domain outcomes this route can answer, for the OpenAPI document. */
  readonly errors?: readonly ErrorCode[];
  /**
   * The member of the answer's `data` that is one record (`form`, `article`, …), or `true` when
   * `data` itself is the record (the repurpose template): its entity tag is sent as `ETag`, and
   * on a GET a matching `If-None-Match` answers 304 without a body.
   */
  readonly etag?: string | true;
  /** The route hands `If-Match` to its use case (412 `Precondition failed` when it does not hold). */
  readonly ifMatch?: boolean;
  /** The 500 message of this operation (default `Server Error`). */
  readonly serverErrorMessage?: string;
  readonly handler: (input: RouteInput<B, P, Q>) => Promise<unknown>;
}

/**
 * An answer that is not enveloped JSON but a stream of text (an export, §6.6): the handler returns
 * it once every check has passed, and the pipeline sends the chunks as they are produced.
 */
export class StreamedAnswer {
  constructor(
    readonly contentType: string,
    readonly chunks: AsyncIterable<string>,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

/** Identity function that gives a route declaration its types. */
export function defineRoute<B = unknown, P = Record<string, string>, Q = Record<string, unknown>>(
  route: RouteDefinition<B, P, Q>,
): RouteDefinition<B, P, Q> {
  return route;
}

/** Every route module exposes its routes under this token (multi-bound in the container). */
export const RouteModuleToken = Symbol.for('cms/RouteModule');
export type RouteModule = readonly RouteDefinition[];
