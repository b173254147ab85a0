import { expect } from 'chai';
import { domainErrorOf } from '../testing/expect-domain-error.js';

async function expectDomainError(run: () => unknown, code: string): Promise<void> {
  expect((await domainErrorOf(Promise.resolve().then(run))).code).to.equal(code);
}
import { checkIfMatch, entityTag, noneMatchHolds } from './entity-tag.js';

const ID = '0123456789abcdef01234567';

describe('entityTag', () => {
  it('is a strong tag that changes with every revision, and counts a record without one as revision 0', () => {
    const tags = [entityTag({ id: ID }), entityTag({ id: ID, revision: 1 }), entityTag({ id: ID, revision: 2 })];
    expect(new Set(tags).size).to.equal(3);
    expect(tags[0]).to.equal(entityTag({ id: ID, revision: 0 }));
    expect(tags[0]).to.match(/^"[^"]+"$/);
  });
});

describe('checkIfMatch', () => {
  const record = { id: ID, revision: 3 };
  const current = entityTag(record);

  it('passes without the header, with *, and with the current tag among others', () => {
    for (const header of [undefined, '*', current, `"x", ${current}`]) expect(() => checkIfMatch(header, record), header).not.to.throw();
  });

  it('fails with PRECONDITION_FAILED for an older tag, a weak tag (strong comparison) or garbage', async () => {
    for (const header of [entityTag({ id: ID, revision: 2 }), `W/${current}`, 'garbage', '']) {
      await expectDomainError(() => checkIfMatch(header, record), 'PRECONDITION_FAILED');
    }
  });
});

describe('noneMatchHolds', () => {
  const record = { id: ID, revision: 3 };

  it('holds for the current tag, weak or strong, and for *', () => {
    for (const header of [entityTag(record), `W/${entityTag(record)}`, '*']) expect(noneMatchHolds(header, record)).to.equal(true);
  });

  it('does not hold without the header or for another tag', () => {
    expect(noneMatchHolds(undefined, record)).to.equal(false);
    expect(noneMatchHolds(entityTag({ id: ID, revision: 4 }), record)).to.equal(false);
  });
});
