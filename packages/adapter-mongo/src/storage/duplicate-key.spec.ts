import { expect } from 'chai';
import { isDuplicateKeyError, retryUpsertOnDuplicateKey } from './duplicate-key.js';

describe('retryUpsertOnDuplicateKey', () => {
  const duplicate = Object.assign(new Error('E11000 duplicate key error'), { code: 11000 });
  const failingTimes = (times: number, error: Error) => {
    let calls = 0;
    const upsert = async () => {
      calls += 1;
      if (calls <= times) throw error;
      return 'stored';
    };
    return { upsert, calls: () => calls };
  };

  describe('when the upsert loses a race on a unique index', () => {
    it('runs it again and returns what the retry returns', async () => {
      const run = failingTimes(2, duplicate);
      expect(await retryUpsertOnDuplicateKey(run.upsert)).to.equal('stored');
      expect(run.calls()).to.equal(3);
    });

    it('gives up after the given number of attempts with the last error', async () => {
      const run = failingTimes(5, duplicate);
      const error = await retryUpsertOnDuplicateKey(run.upsert, 3).catch((e: unknown) => e);
      expect(error).to.equal(duplicate);
      expect(run.calls()).to.equal(3);
    });
  });

  describe('when the upsert fails for another reason', () => {
    it('does not retry', async () => {
      const outage = Object.assign(new Error('network'), { code: 6 });
      const run = failingTimes(1, outage);
      expect(await retryUpsertOnDuplicateKey(run.upsert).catch((e: unknown) => e)).to.equal(outage);
      expect(run.calls()).to.equal(1);
    });
  });

  it('recognises a duplicate key by its code only', () => {
    expect(isDuplicateKeyError(duplicate)).to.equal(true);
    expect(isDuplicateKeyError({ code: 11000 })).to.equal(true);
    expect(isDuplicateKeyError({ code: 11001 })).to.equal(false);
    expect(isDuplicateKeyError(null)).to.equal(false);
  });

  it('tells which index a duplicate key violated when asked', () => {
    const onSlug = { code: 11000, message: 'E11000 duplicate key error collection: cms.forms index: tenant_slug_unique dup key: { tenantId: "a", slug: "x" }' };
    const onId = { code: 11000, errmsg: 'E11000 duplicate key error collection: cms.forms index: _id_ dup key: { _id: ObjectId(\'65f1c0ffee0123456789abcd\') }' };
    expect(isDuplicateKeyError(onSlug, 'tenant_slug_unique')).to.equal(true);
    expect(isDuplicateKeyError(onId, 'tenant_slug_unique')).to.equal(false);
    expect(isDuplicateKeyError(onId, '_id_')).to.equal(true);
    expect(isDuplicateKeyError({ code: 11001, message: onSlug.message }, 'tenant_slug_unique')).to.equal(false);
  });
});
