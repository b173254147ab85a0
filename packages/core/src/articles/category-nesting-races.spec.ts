/**
 * One level of nesting under racing writes: a sub-category created under a category that is
 * meanwhile given a parent, and a category given a parent while a sub-category is created under
 * it. Each check alone passed, and together they made two levels; now each writer checks again
 * after its write and the one that finds two levels takes its write back and is refused as its
 * check would have refused it (decision 0763). Interleavings forced as in
 * `references-racing-deletes.spec.ts`.
 */
import { expect } from 'chai';
import { StaticCaptchaVerifier } from '../captcha/captcha.ports.js';
import { createCore } from '../embedded/create-core.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { userCaller } from '../testing/callers.js';
import { domainErrorOf } from '../testing/expect-domain-error.js';
import { whileHeld } from '../testing/held-calls.js';

const editor = userCaller('acme', 'ed-1', 'editor');

const setup = async () => {
  const core = createCore({ captcha: new StaticCaptchaVerifier() });
  const { categories } = core.stores;
  const [a, b] = [await core.articles.createCategory.execute(editor, { name: 'A' }), await core.articles.createCategory.execute(editor, { name: 'B' })];
  const childrenOf = async (parentId: string) => categories.list('acme', { parentId }, { after: null, limit: 100 });
  return { core, categories, a, b, childrenOf };
};

describe('One level of category nesting under racing writes', () => {
  it('refuses a sub-category whose parent was given a parent between its check and its write, and stores none', async () => {
    const { core, categories, a, b, childrenOf } = await setup();
    const creating = whileHeld(
      categories,
      'insert',
      () => core.articles.createCategory.execute(editor, { name: 'C', parentId: b.id }),
      () => core.articles.updateCategory.execute(editor, { id: b.id, changes: { parentId: a.id } }),
    );
    const refusal = await domainErrorOf(creating);
    expect([refusal.code, refusal.issues?.[0]]).to.deep.equal([ErrorCodes.VALIDATION_FAILED, { path: 'parentId', message: 'must be a top-level category (one level of nesting)' }]);
    expect(await childrenOf(b.id)).to.deep.equal([]);
    expect((await categories.findById('acme', b.id))?.parentId).to.equal(a.id);
  });

  it('refuses a move under a parent when a sub-category was created under the moved one meanwhile, and puts it back', async () => {
    const { core, categories, a, b, childrenOf } = await setup();
    let child: { id: string } | undefined;
    const moving = whileHeld(
      categories,
      'update',
      () => core.articles.updateCategory.execute(editor, { id: b.id, changes: { parentId: a.id } }),
      async () => (child = await core.articles.createCategory.execute(editor, { name: 'C', parentId: b.id })),
    );
    const refusal = await domainErrorOf(moving);
    expect([refusal.code, refusal.issues?.[0]]).to.deep.equal([ErrorCodes.VALIDATION_FAILED, { path: 'parentId', message: 'cannot be set on a category that has sub-categories (one level of nesting)' }]);
    expect((await categories.findById('acme', b.id))?.parentId).to.equal(null);
    expect((await childrenOf(b.id)).map((category) => category.id)).to.deep.equal([child?.id]);
    expect(await childrenOf(a.id)).to.deep.equal([]);
  });
});
