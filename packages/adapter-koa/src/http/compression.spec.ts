import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import type { Context } from 'koa';
import { COMPRESSION_THRESHOLD_BYTES, encodeBody, encodingFor } from './compression.js';

/** The members of a Koa context that `encodeBody` uses: the body, and the answer's headers. */
function contextWith(body: unknown): Context & { headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  const set = (name: string, value: string) => (headers[name.toLowerCase()] = value);
  return { body, headers, set, res: { getHeader: (name: string) => headers[name.toLowerCase()], setHeader: set } } as unknown as Context & {
    headers: Record<string, string>;
  };
}

async function* rows(count: number, failAfter = Infinity): AsyncGenerator<string> {
  for (let row = 0; row < count; row++) {
    if (row === failAfter) throw new Error('store went away');
    yield `row ${row}\n`;
  }
}

describe('encodeBody on a streamed answer', () => {
  it('encodes the stream as it flows, to the same text', async () => {
    const ctx = contextWith(Readable.from(rows(5000)));
    await encodeBody(ctx, 'gzip');
    expect(ctx.headers['content-encoding']).to.equal('gzip');
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.body as Readable) chunks.push(chunk as Buffer);
    expect(gunzipSync(Buffer.concat(chunks)).toString()).to.equal(Array.from({ length: 5000 }, (_, row) => `row ${row}\n`).join(''));
  });

  it('fails the encoded stream when its source fails mid-way, so the answer is cut off and not left open', async () => {
    const ctx = contextWith(Readable.from(rows(5000, 2500)));
    await encodeBody(ctx, 'br');
    const encoded = ctx.body as Readable;
    encoded.resume();
    const outcome = await finished(encoded).then(
      () => 'ended',
      (error: Error) => error.message,
    );
    expect(outcome).to.equal('store went away');
  });
});

describe('encodingFor: which answers are encoded', () => {
  /** A context asking for gzip, with `body` as its answer. */
  const asking = (body: unknown) => {
    const ctx = contextWith(body) as unknown as Record<string, unknown> & { res: Record<string, unknown> };
    ctx['req'] = { headers: { 'accept-encoding': 'gzip' } };
    ctx['acceptsEncodings'] = () => 'gzip';
    ctx.res['hasHeader'] = () => false;
    return ctx as unknown as Context;
  };

  it('encodes an answer over 1 KiB counted in UTF-8 bytes, not in characters', () => {
    expect(COMPRESSION_THRESHOLD_BYTES).to.equal(1024);
    expect(encodingFor(asking('x'.repeat(1024)))).to.equal(undefined);
    expect(encodingFor(asking('x'.repeat(1025)))).to.equal('gzip');
    // 400 characters of three bytes each: 1,200 bytes.
    expect(encodingFor(asking('€'.repeat(400)))).to.equal('gzip');
    expect(encodingFor(asking('€'.repeat(341)))).to.equal(undefined); // 1,023 bytes
  });
});
