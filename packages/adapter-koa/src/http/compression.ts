/**
 * Answers over 1 KiB go out gzip- or br-encoded when the client's `Accept-Encoding` allows
 * (CONTRACT §8), with `Vary: Accept-Encoding`. Run by the edge once the answer is decided: a
 * small answer costs one type check and one length read, where a middleware layer of its own
 * (koa-compress) cost every request an async step (decision 0730). A streamed answer (a large
 * export: routes stream only past 64 KiB) is encoded as it streams, so memory stays flat. An
 * encoded answer's `ETag` names its coding (`"…-gzip"`), and conditions read it back as the
 * record's tag (`uncodedTags`).
 */
import { pipeline, Readable } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip } from 'node:zlib';
import type { Context } from 'koa';
import { isPlainContainer } from '@cms/core/snapshots';

export const COMPRESSION_THRESHOLD_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
// Quality 4: brotli's default (11) takes milliseconds on a 70 KB document; 4 compresses it as well as gzip.
const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };

/**
 * The encoding to send this answer in, or undefined to send it as it is. Sets `Vary` on answers
 * large enough to be encoded. An object body (an error's envelope: the routes write their own
 * text) is replaced by the text Koa would write for it, so that its size is known.
 */
export function encodingFor(ctx: Context): 'br' | 'gzip' | undefined {
  let body: unknown = ctx.body;
  if (isJsonValue(body)) ctx.body = body = JSON.stringify(body);
  if (!isLarge(body)) return undefined;
  varyOnEncoding(ctx);
  if (ctx.res.hasHeader('content-encoding')) return undefined;
  return negotiated(ctx);
}

/**
 * A 304 carries the `ETag` and `Vary` the 200 it stands for would have (RFC 9110 §15.4.5): for
 * `body`, the answer a 200 would write, `Vary: Accept-Encoding` when it is large enough to be
 * encoded, and the coded tag (`"…-gzip"`) when it would have been.
 */
export function validatorsOfNotModified(ctx: Context, body: string): void {
  if (!isLarge(body)) return;
  varyOnEncoding(ctx);
  const encoding = negotiated(ctx);
  if (encoding) codeTag(ctx, encoding);
}

function isLarge(body: unknown): boolean {
  return typeof body === 'string'
    ? body.length > COMPRESSION_THRESHOLD_BYTES || (body.length * 3 > COMPRESSION_THRESHOLD_BYTES && Buffer.byteLength(body) > COMPRESSION_THRESHOLD_BYTES)
    : Buffer.isBuffer(body) ? body.length > COMPRESSION_THRESHOLD_BYTES : body instanceof Readable;
}

function varyOnEncoding(ctx: Context): void {
  const res = ctx.res;
  const vary = res.getHeader('vary');
  // Koa's ctx.vary parses and rebuilds the header: a cost on every large answer, where usually there is none yet.
  res.setHeader('vary', vary === undefined ? 'Accept-Encoding' : `${String(vary)}, Accept-Encoding`);
}

/** The coding the request accepts best of ours, or undefined for none (identity). */
function negotiated(ctx: Context): 'br' | 'gzip' | undefined {
  if (ctx.req.headers['accept-encoding'] === undefined) return undefined;
  const chosen = ctx.acceptsEncodings('br', 'gzip', 'identity');
  return chosen === 'br' || chosen === 'gzip' ? chosen : undefined;
}

/** Each representation has its own strong validator (RFC 9110 §8.8.3): the coding is named in the tag. */
function codeTag(ctx: Context, encoding: 'br' | 'gzip'): void {
  const tag = ctx.res.getHeader('etag');
  if (typeof tag === 'string' && tag.endsWith('"')) ctx.res.setHeader('etag', `${tag.slice(0, -1)}-${encoding}"`);
}

/** A plain object or array: what Koa writes as JSON (a Buffer, a stream or another kind of object is not). */
function isJsonValue(body: unknown): body is object {
  return typeof body === 'object' && body !== null && isPlainContainer(body);
}

/** Replaces the body by its encoded bytes, or a stream by its encoding stream (the content type stays). */
export async function encodeBody(ctx: Context, encoding: 'br' | 'gzip'): Promise<void> {
  const body = ctx.body as string | Buffer | Readable;
  if (body instanceof Readable) {
    const encoder = encoding === 'br' ? createBrotliCompress(BROTLI_OPTIONS) : createGzip();
    // A source that fails mid-way destroys the encoder, so the answer is cut off, not left hanging;
    // a client that goes away destroys the encoder (Koa), and with it the source.
    pipeline(body, encoder, IGNORED);
    ctx.body = encoder; // Koa drops the Content-Length of the stream it replaces
  } else {
    const input = typeof body === 'string' ? Buffer.from(body) : body;
    ctx.body = encoding === 'br' ? await brotli(input, BROTLI_OPTIONS) : await gzipped(input);
  }
  ctx.set('content-encoding', encoding);
  codeTag(ctx, encoding);
}

/** A record's tag as an encoded answer carries it: the 27 characters of its digest, then the coding. */
const CODED_TAG = /"([A-Za-z0-9_-]{27})-(?:gzip|br)"/g;

/**
 * An `If-Match` / `If-None-Match` value with the coding taken off each tag an encoded answer
 * carried (`"…-gzip"` is `"…"`): a tag validates the record whatever coding it came in, so a client
 * can PATCH with the tag of a compressed read. A header without one is returned as it is.
 */
export function uncodedTags(header: string | undefined): string | undefined {
  if (header === undefined || !(header.includes('-gzip"') || header.includes('-br"'))) return header;
  return header.replace(CODED_TAG, '"$1"');
}

/** The pipeline's outcome reaches the client through the encoder; nothing is left to do with it. */
const IGNORED = () => {};
