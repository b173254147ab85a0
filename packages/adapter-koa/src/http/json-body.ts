/**
 * JSON body reading on koa-bodyparser, run by the route pipeline at the body step (so
 * credentials and access are answered first). Its plain-text failures become envelope outcomes:
 * malformed JSON 400, oversized 413, another media type 415. An oversized or refused body is
 * never buffered: the edge drains what is left of it and keeps the connection, or closes it
 * after a short linger (`early-answers.ts`), so the answer reaches the client either way. A
 * client that sent `Expect: 100-continue` is told to continue here, when the body is wanted, and
 * not before: a declared size over the limit or another media type is its final answer. An
 * empty body is `undefined` (absent), so "no body" and `{}` stay distinguishable.
 */
import bodyParser from 'koa-bodyparser';
import type { Context } from 'koa';
import { continueIfExpected } from './early-answers.js';
import { HttpErrorCodes, HttpProblem } from './http-error-codes.js';

/** Reads the body of a request that has one (`hasBody`). */
export type JsonBodyReader = (ctx: Context) => Promise<unknown>;

/**
 * `__proto__` keys in a body: `refused` fails the parse (400 `Invalid JSON body`); `dropped`
 * parses the body without them, for an operation that drops the keys it does not know. Either
 * way no object with such a key ever exists.
 */
export type PrototypeKeys = 'refused' | 'dropped';

export function jsonBodyReader(limitBytes: number, prototypeKeys: PrototypeKeys = 'refused'): JsonBodyReader {
  const tooLarge = () => new HttpProblem(HttpErrorCodes.BODY_TOO_LARGE);
  // co-body's option (@hapi/bourne's `protoAction`), which koa-bodyparser hands on but does not type.
  const coBody = { onProtoPoisoning: prototypeKeys === 'dropped' ? 'remove' : 'error' };
  const parse = bodyParser({
    ...coBody,
    enableTypes: ['json'],
    jsonLimit: `${limitBytes}b`,
    strict: false,
    // The media type is checked before `parse` runs (below), so the parser need not check again.
    detectJSON: () => true,
    onerror: (error: Error & { status?: number; type?: string }) => {
      if (error.status === 413 || error.type === 'entity.too.large') throw tooLarge();
      if (error.status === 415) throw new HttpProblem(HttpErrorCodes.UNSUPPORTED_MEDIA_TYPE);
      throw new HttpProblem(HttpErrorCodes.INVALID_JSON);
    },
  });
  const done = async () => {};
  return async (ctx) => {
    if (!isJsonRequest(ctx)) throw new HttpProblem(HttpErrorCodes.UNSUPPORTED_MEDIA_TYPE);
    const declared = Number(ctx.get('content-length'));
    if (Number.isFinite(declared) && declared > limitBytes) throw tooLarge();
    continueIfExpected(ctx.req, ctx.res);
    await parse(ctx, done);
    const raw = ctx.request.rawBody;
    return raw === '' || raw === undefined ? undefined : ctx.request.body;
  };
}

/**
 * Whether the body is declared JSON (`application/json` or a `+json` type, any parameters). The
 * header almost every client sends, exactly `application/json`, is taken without parsing it.
 */
function isJsonRequest(ctx: Context): boolean {
  return ctx.req.headers['content-type'] === 'application/json' || Boolean(ctx.request.is('application/json', 'application/*+json'));
}

/** Whether the request carries a body at all; the reader is only for those that do. */
export function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
