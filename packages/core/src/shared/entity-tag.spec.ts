import { expect } from 'chai';
import { domainErrorOf } from '../testing/expect-domain-error.js';
import { checkIfMatch, entityTag, nextUpdatedAt, noneMatchHolds } from './entity-tag.js';

const view = (name: string, updatedAt = '2026-01-02T03:04:05.678Z') => ({ id: '0123456789abcdef01234567', name, updatedAt: new Date(updatedAt) });

describe('entityTag', () => {
  it('is a strong tag that follows what the caller sees, and is the same for equal answers', () => {
    expect(entityTag(view('a'))).to.match(/^"[A-Za-z0-9_-]{27}"$/);
    expect(entityTag(view('a'))).to.equal(entityTag(view('a')));
    expect(entityTag(view('b'))).to.not.equal(entityTag(view('a')));
    expect(entityTag(view('a', '2026-01-02T03:04:05.679Z'))).to.not.equal(entityTag(view('a')));
  });

  it('gives a frozen view the same tag on every call', () => {
    const frozen = Object.freeze(view('a'));
    expect(entityTag(frozen)).to.equal(entityTag(frozen)).and.to.equal(entityTag(view('a')));
  });

  it('keeps a frozen view\'s tag only when asked to remember it (a write\'s answer is not kept)', () => {
    const written = Object.freeze({ id: 'w1' });
    let texts = 0;
    const text = () => (texts++, JSON.stringify(written));
    const once = entityTag(written, text, false);
    expect(entityTag(written, text, false)).to.equal(once);
    expect(texts).to.equal(2);
    expect(entityTag(written, text)).to.equal(once);
    expect(entityTag(written, text)).to.equal(once);
    expect(texts).to.equal(3);
  });
});

describe('nextUpdatedAt', () => {
  it('is now, or one millisecond after the previous time when the clock has not moved past it', () => {
    const previous = new Date('2026-01-02T03:04:05.678Z');
    expect(nextUpdatedAt(previous, new Date('2026-01-02T03:04:06.000Z')).toISOString()).to.equal('2026-01-02T03:04:06.000Z');
    expect(nextUpdatedAt(previous, previous).toISOString()).to.equal('2026-01-02T03:04:05.679Z');
    expect(nextUpdatedAt(previous, new Date(0)).toISOString()).to.equal('2026-01-02T03:04:05.679Z');
  });
});

describe('checkIfMatch', () => {
  const current = view('a');
  const tag = entityTag(current);

  it('passes without the header, with *, and with the current tag among others', () => {
    for (const header of [undefined, '*', ' * ', tag, `"x", ${tag}`, `"x", , ${tag}`]) expect(() => checkIfMatch(header, () => current), header).not.to.throw();
  });

  it('fails with PRECONDITION_FAILED for a malformed list, even one that holds * or the current tag', async () => {
    for (const header of [`*, ${tag}`, `${tag}, *`, `${tag}, garbage`, `${tag} ${tag}`]) {
      const error = await domainErrorOf(Promise.resolve().then(() => checkIfMatch(header, () => current)));
      expect(error.code, header).to.equal('PRECONDITION_FAILED');
    }
  });

  it('builds the view only when a tag has to be compared', () => {
    let built = 0;
    const viewOf = () => {
      built += 1;
      return current;
    };
    checkIfMatch(undefined, viewOf);
    checkIfMatch('*', viewOf);
    expect(built).to.equal(0);
    checkIfMatch(tag, viewOf);
    expect(built).to.equal(1);
  });

  it('fails with PRECONDITION_FAILED for another tag, a weak tag (strong comparison) or garbage', async () => {
    for (const header of [entityTag(view('b')), `W/${tag}`, 'garbage', '', ', ']) {
      const error = await domainErrorOf(Promise.resolve().then(() => checkIfMatch(header, () => current)));
      expect(error.code, header).to.equal('PRECONDITION_FAILED');
    }
  });
});

describe('noneMatchHolds', () => {
  const tag = entityTag(view('a'));

  it('holds for the current tag, weak or strong, and for *', () => {
    for (const header of [tag, `W/${tag}`, `"x", ${tag}`, '*']) expect(noneMatchHolds(header, tag), header).to.equal(true);
  });

  it('does not hold without the header or for another tag', () => {
    expect(noneMatchHolds(undefined, tag)).to.equal(false);
    expect(noneMatchHolds(entityTag(view('b')), tag)).to.equal(false);
  });

  it('does not hold for a malformed value, even one that holds * or the current tag', () => {
    for (const header of [`"x", *`, `${tag}, garbage`, '']) expect(noneMatchHolds(header, tag), header).to.equal(false);
  });
});
