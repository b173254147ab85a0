/**
 * JSON body reading on koa-bodyparser, run by the route pipeline at the body step (so
 * credentials and access are answered first). Its plain-text failures become envelope outcomes:
 * malformed JSON 400, oversized 413, another media type or a charset other than UTF-8 415, a
 * content coding it does not decode 415 naming the coding as the problem (with `Accept-Encoding`),
 * text with a lone surrogate 400 naming where. An oversized or refused body is
 * never buffered: the edge drains what is left of it and keeps the connection, or closes it
 * after a short linger (`early-answers.ts`), so the answer reaches the client either way. A
 * client that sent `Expect: 100-continue` is told to continue here, when the body is wanted, and
 * not before: a declared size over the limit or another media type is its final answer. An
 * empty body is `undefined` (absent), so "no body" and `{}` stay distinguishable.
 */
import bodyParser from 'koa-bodyparser';
import type { Context } from 'koa';
import { firstPath, MALFORMED_TEXT, malformedTextPath, validationError } from '@cms/core/internal';
import { httpLocated } from './input-paths.js';
import { continueIfExpected } from './early-answers.js';
import { HttpErrorCodes, HttpProblem } from './http-error-codes.js';
import { headerOf } from './request-head.js';

/**
 * Reads the body of a request that has one (`hasBody`). `prototypeKeys` says what becomes of a
 * `__proto__` key: `refused` fails the read with a 400 naming it (`body.title.__proto__ is not
 * allowed`, as a strict body names any key it does not describe; decision 0787); `dropped` gives
 * the body without it, for an operation that drops the keys it does not know (§2.1's dashboard).
 * Either way no object holding such a key reaches a route.
 */
export type JsonBodyReader = (ctx: Context, prototypeKeys?: PrototypeKeys) => Promise<unknown>;

export type PrototypeKeys = 'refused' | 'dropped';

/**
 * The content codings the parser decodes (inflation, under koa-bodyparser; `identity` too). Any
 * other is refused with a 415 before a byte is read and before a client that expects it is told
 * to continue. RFC 9110 §15.5.16 has that 415 say which codings would do.
 */
const DECODED_ENCODINGS = { 'accept-encoding': 'gzip, deflate, br' };

/**
 * A content coding's name as the parser knows it, or `undefined` for one it does not decode.
 * Names are case-insensitive and `x-gzip` is `gzip` (RFC 9110 §8.4.1); the parser compares them
 * exactly, so a `GZIP` body was refused. A list of codings (a body encoded twice) is refused.
 */
function decodedCoding(declared: string): string | undefined {
  const name = declared.trim().toLowerCase();
  if (name === 'gzip' || name === 'deflate' || name === 'br' || name === 'identity') return name;
  return name === 'x-gzip' ? 'gzip' : undefined;
}

/** What @hapi/bourne (inside koa-bodyparser) throws for a `__proto__` or `constructor.prototype` key. */
const PROTOTYPE_KEY_REFUSED = 'Object contains forbidden prototype property';

/** A body the parser refused for a prototype key: its text, for a route that drops such keys. */
class PrototypeKeyInBody extends HttpProblem {
  constructor(readonly text: string) {
    super(HttpErrorCodes.INVALID_JSON);
  }
}

/**
 * The body with every `__proto__` key taken out, at any depth. `JSON.parse` defines such a key as
 * an own property, never as the prototype, so it is deleted as one. The walk keeps its own list
 * of what is left to visit: a reviver recurses once per level, and a body nested some thousands
 * of levels deep (a few KB) overflowed the stack and was answered 500.
 */
function parsedWithoutPrototypeKeys(text: string): unknown {
  const body: unknown = JSON.parse(text);
  const pending: unknown[] = [body];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      for (const item of node) if (typeof item === 'object' && item !== null) pending.push(item);
      continue;
    }
    const members = node as Record<string, unknown>;
    if (Object.hasOwn(members, '__proto__')) delete members['__proto__'];
    for (const key of Object.keys(members)) {
      const value = members[key];
      if (typeof value === 'object' && value !== null) pending.push(value);
    }
  }
  return body;
}

const isObjectNode = (node: unknown): node is object => typeof node === 'object' && node !== null && !Array.isArray(node);

/** The path of the first `__proto__` key of a body the parser refused, as a validation message names it (`body.sections[0].__proto__`). */
function prototypeKeyPath(text: string): string {
  const found = firstPath(JSON.parse(text), 'body', (node, path) => (isObjectNode(node) && Object.hasOwn(node, '__proto__') ? `${path}.__proto__` : undefined));
  return found ?? 'body'; // not reached: the parser refused the text for such a key
}

/**
 * Whether a failed read is one the body check reports (a body that is not JSON, one with a
 * prototype key, or text that is not Unicode), which an update route answers only after its 404
 * and 412.
 */
export function refusedContent(error: unknown): boolean {
  return (error instanceof HttpProblem && error.code === HttpErrorCodes.INVALID_JSON) || CONTENT_ERRORS.has(error as object);
}

const CONTENT_ERRORS = new WeakSet<object>();

function contentRefused(path: string, problem: string): Error {
  const error = httpLocated(validationError(path, problem));
  CONTENT_ERRORS.add(error);
  return error;
}

/** The body, refused when its text holds an escape that makes a lone surrogate (a cheap look at the text first). */
function wellFormedBody(text: string, body: unknown): unknown {
  if (!text.includes('\\u')) return body;
  const path = malformedTextPath(body, 'body');
  if (path !== undefined) throw contentRefused(path, MALFORMED_TEXT);
  return body;
}

function prototypeKeyRefused(text: string): Error {
  return contentRefused(prototypeKeyPath(text), 'is not allowed');
}

export function jsonBodyReader(limitBytes: number): JsonBodyReader {
  const tooLarge = () => new HttpProblem(HttpErrorCodes.BODY_TOO_LARGE);
  // One parser for every route, whatever it does with prototype keys: such a body is rare, and is
  // parsed again, by hand, only when the parser refused it (to drop the keys, or to name one).
  const parse = bodyParser({
    enableTypes: ['json'],
    jsonLimit: `${limitBytes}b`,
    strict: false,
    // The media type is checked before `parse` runs (below), so the parser need not check again.
    detectJSON: () => true,
    onerror: (error: Error & { status?: number; type?: string; body?: unknown }) => {
      if (error.status === 413 || error.type === 'entity.too.large') throw tooLarge();
      if (error.status === 415) throw new HttpProblem(HttpErrorCodes.UNSUPPORTED_CONTENT_ENCODING, DECODED_ENCODINGS);
      if (error.message === PROTOTYPE_KEY_REFUSED && typeof error.body === 'string') throw new PrototypeKeyInBody(error.body);
      throw new HttpProblem(HttpErrorCodes.INVALID_JSON);
    },
  });
  const done = async () => {};
  return async (ctx, prototypeKeys = 'refused') => {
    if (!isJsonRequest(ctx)) throw new HttpProblem(HttpErrorCodes.UNSUPPORTED_MEDIA_TYPE);
    if (!utf8Declared(ctx)) throw new HttpProblem(HttpErrorCodes.UNSUPPORTED_CHARSET);
    const declared = Number(headerOf(ctx, 'content-length'));
    if (Number.isFinite(declared) && declared > limitBytes) throw tooLarge();
    const coding = ctx.req.headers['content-encoding'];
    if (coding !== undefined && coding !== '') acceptCoding(ctx, coding);
    continueIfExpected(ctx.req, ctx.res);
    try {
      await parse(ctx, done);
    } catch (error) {
      if (!(error instanceof PrototypeKeyInBody)) throw error;
      if (prototypeKeys === 'dropped') return wellFormedBody(error.text, parsedWithoutPrototypeKeys(error.text));
      throw prototypeKeyRefused(error.text);
    }
    const raw = ctx.request.rawBody;
    return raw === '' || raw === undefined ? undefined : wellFormedBody(raw as string, ctx.request.body);
  };
}

/** Refuses a coding the parser does not decode; hands it the name it knows for one it does. */
function acceptCoding(ctx: Context, declared: string): void {
  const name = decodedCoding(declared);
  if (name === undefined) throw new HttpProblem(HttpErrorCodes.UNSUPPORTED_CONTENT_ENCODING, DECODED_ENCODINGS);
  if (name !== declared) ctx.req.headers['content-encoding'] = name;
}

/**
 * Whether the body is declared JSON (`application/json` or a `+json` type, any parameters). The
 * header almost every client sends, exactly `application/json`, is taken without parsing it.
 */
function isJsonRequest(ctx: Context): boolean {
  return ctx.req.headers['content-type'] === 'application/json' || Boolean(ctx.request.is('application/json', 'application/*+json'));
}

/**
 * Whether the body is declared in UTF-8, the only encoding JSON is exchanged in (RFC 8259 §8.1):
 * no `charset`, or `utf-8`. The parser reads every body as UTF-8, so a Latin-1 body declared as
 * such was stored with its accents turned into U+FFFD, and a UTF-16 one was "Invalid JSON".
 */
function utf8Declared(ctx: Context): boolean {
  if (ctx.req.headers['content-type'] === 'application/json') return true;
  const charset = ctx.request.charset.toLowerCase();
  return charset === '' || charset === 'utf-8' || charset === 'utf8';
}

/** Whether the request carries a body at all; the reader is only for those that do. */
export function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
