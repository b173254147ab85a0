import { expect } from 'chai';
import { domainErrorOf } from '../testing/expect-domain-error.js';

async function expectDomainError(run: () => unknown, code: string): Promise<void> {
  expect((await domainErrorOf(Promise.resolve().then(run))).code).to.equal(code);
}
import { listScope, PageCursors, pageLimit, readPage, type KeysetPosition } from './page-cursor.js';

const ID_A = '0123456789abcdef01234567';
const at = (ms: number, id = ID_A): KeysetPosition => ({ createdAt: new Date(ms), id });

/** The text with its last character replaced by another that decodes to the same bytes (its unused low bits changed). */
function otherSpellingOfLast(text: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const bytes = Buffer.from(text.slice(text.lastIndexOf('.') + 1), 'base64url');
  for (const character of alphabet) {
    const other = text.slice(0, -1) + character;
    if (other !== text && Buffer.from(other.slice(other.lastIndexOf('.') + 1), 'base64url').equals(bytes)) return other;
  }
  throw new Error(`no other spelling of ${text}`);
}

describe('PageCursors', () => {
  const cursors = new PageCursors('a secret of the test, long enough');
  const scope = listScope('forms', 'acme', { isActive: 'true', visibility: null });

  describe('when a cursor comes back to the list that issued it', () => {
    it('gives back the position it carries', () => {
      const position = at(Date.UTC(2026, 0, 2, 3, 4, 5, 678));
      expect(cursors.decode(scope, cursors.encode(scope, position))).to.deep.equal(position);
    });

    it('does not depend on the order the filters were given in', () => {
      const other = listScope('forms', 'acme', { visibility: null, isActive: 'true' });
      expect(cursors.decode(other, cursors.encode(scope, at(5)))).to.deep.equal(at(5));
    });
  });

  describe('when a cursor is used elsewhere or changed', () => {
    const cursor = cursors.encode(scope, at(5));
    const refusals: Array<[string, () => unknown]> = [
      ['another list', () => cursors.decode(listScope('articles', 'acme', { isActive: 'true', visibility: null }), cursor)],
      ['other filters', () => cursors.decode(listScope('forms', 'acme', { isActive: 'false', visibility: null }), cursor)],
      ['another tenant', () => cursors.decode(listScope('forms', 'other', { isActive: 'true', visibility: null }), cursor)],
      ['another secret', () => new PageCursors('another secret of the test, long').decode(scope, cursor)],
      ['a changed position', () => cursors.decode(scope, Buffer.from(`${(6).toString(36)}.${ID_A}`).toString('base64url') + cursor.slice(cursor.indexOf('.')))],
      ['no signature', () => cursors.decode(scope, cursor.slice(0, cursor.indexOf('.')))],
      ['garbage', () => cursors.decode(scope, 'not-a-cursor')],
      ['an empty text', () => cursors.decode(scope, '')],
      // Base64url decoding would skip these or ignore the bits: the bytes are the issued ones, the text is not.
      ['characters outside base64url in it', () => cursors.decode(scope, cursor.replace('.', '!!.'))],
      ['padding added', () => cursors.decode(scope, cursor.replace('.', '=.'))],
      ['a space after it', () => cursors.decode(scope, `${cursor} `)],
      ['its signature spelled another way', () => cursors.decode(scope, otherSpellingOfLast(cursor))],
    ];
    for (const [name, decode] of refusals) {
      it(`refuses ${name} with INVALID_CURSOR`, () => expectDomainError(decode, 'INVALID_CURSOR'));
    }
  });

  describe('when it signs a position again', () => {
    it('gives the text it gave the first time and a fresh signer gives, before and after 300 others pushed it out', () => {
      const signer = new PageCursors('a secret of the test, long enough');
      const first = signer.encode(scope, at(7));
      expect(signer.encode(scope, at(7))).to.equal(first);
      for (let i = 0; i < 300; i += 1) signer.encode(scope, at(1000 + i));
      expect(signer.encode(scope, at(7))).to.equal(first);
      expect(cursors.encode(scope, at(7))).to.equal(first);
    });

    it('checks a cursor of a position it signed lately against the kept text, and one pushed out by signing it again', async () => {
      const signer = new PageCursors('a secret of the test, long enough');
      const kept = signer.encode(scope, at(9));
      expect(signer.decode(scope, kept)).to.deep.equal(at(9));
      const dot = kept.indexOf('.');
      const forged = `${kept.slice(0, dot + 1)}${'A'.repeat(kept.length - dot - 1)}`;
      await expectDomainError(() => signer.decode(scope, forged), 'INVALID_CURSOR');
      await expectDomainError(() => signer.decode(scope, otherSpellingOfLast(kept)), 'INVALID_CURSOR');
      await expectDomainError(() => signer.decode(scope, `${kept}A`), 'INVALID_CURSOR');
      for (let i = 0; i < 300; i += 1) signer.encode(scope, at(2000 + i));
      expect(signer.decode(scope, kept)).to.deep.equal(at(9));
      await expectDomainError(() => signer.decode(scope, forged), 'INVALID_CURSOR');
      // Another list's kept position does not vouch for this list's cursor.
      const there = listScope('forms', 'other', { isActive: 'true', visibility: null });
      signer.encode(there, at(10));
      await expectDomainError(() => signer.decode(there, signer.encode(scope, at(10))), 'INVALID_CURSOR');
    });

    it('gives each check of a kept cursor a position of its own: a caller that changes one changes no later check', () => {
      const signer = new PageCursors('a secret of the test, long enough');
      const kept = signer.encode(scope, at(11));
      const first = signer.decode(scope, kept);
      first.createdAt.setTime(0);
      expect(signer.decode(scope, kept)).to.deep.equal(at(11));
      expect(signer.encode(scope, at(11))).to.equal(kept);
    });

    it('keeps the list apart: the same position signed for another list is another cursor, refused here', async () => {
      const other = listScope('forms', 'other', { isActive: 'true', visibility: null });
      const here = cursors.encode(scope, at(8));
      const there = cursors.encode(other, at(8));
      expect(there).not.to.equal(here);
      await expectDomainError(() => cursors.decode(scope, there), 'INVALID_CURSOR');
      expect(cursors.decode(other, there)).to.deep.equal(at(8));
    });
  });
});

describe('pageLimit', () => {
  it('defaults to 20 and takes integers 1-100, also as query text', () => {
    expect([pageLimit(undefined), pageLimit(1), pageLimit('100'), pageLimit(null)]).to.deep.equal([20, 1, 100, 20]);
  });

  it('refuses anything else as a validation failure', async () => {
    for (const value of [0, 101, 1.5, '1.5', 'ten', '', -1, true]) await expectDomainError(() => pageLimit(value), 'VALIDATION_FAILED');
  });
});

describe('readPage', () => {
  const cursors = new PageCursors();
  const scope = listScope('authors', 'acme');
  const records = Array.from({ length: 5 }, (_, i) => at(100 - i, `${'0'.repeat(23)}${i}`));
  const fetch = async ({ after, limit }: { after: KeysetPosition | null; limit: number }) => {
    const start = after ? records.findIndex((record) => record.id === after.id) + 1 : 0;
    return records.slice(start, start + limit);
  };

  it('pages through every record once and ends with a null cursor', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await readPage(cursors, scope, { limit: '2', cursor }, fetch);
      seen.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor !== undefined);
    expect(seen).to.deep.equal(records.map((record) => record.id));
    expect(pages).to.equal(3);
  });

  it('answers a null cursor when the page is exactly the last records', async () => {
    const page = await readPage(cursors, scope, { limit: 5 }, fetch);
    expect(page.items).to.have.length(5);
    expect(page.nextCursor).to.equal(null);
  });

  it('refuses a cursor that is not text', async () => {
    await expectDomainError(() => readPage(cursors, scope, { cursor: ['a'] }, fetch), 'INVALID_CURSOR');
  });
});
