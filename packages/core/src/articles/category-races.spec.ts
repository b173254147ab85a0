/**
 * Categories under racing writes. One level of nesting: a sub-category created under a category
 * that is meanwhile given a parent, and a category given a parent while a sub-category is created
 * under it; each check alone passed, and together they made two levels. Now each writer checks
 * again after its write and the one that finds two levels takes its write back and is refused as
 * its check would have refused it. And an article written while its category moves is filed
 * where the category went, as the move files the others (decision 0763). Interleavings forced as
 * in `references-racing-deletes.spec.ts`.
 */
import { expect } from 'chai';
import { StaticCaptchaVerifier } from '../captcha/captcha.ports.js';
import { createCore } from '../embedded/create-core.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { userCaller } from '../testing/callers.js';
import { domainErrorOf } from '../testing/expect-domain-error.js';
import { holdNext, signal, whileHeld } from '../testing/held-calls.js';

const editor = userCaller('acme', 'ed-1', 'editor');

const setup = async () => {
  const core = createCore({ captcha: new StaticCaptchaVerifier() });
  const { categories } = core.stores;
  const [a, b] = [await core.articles.createCategory.execute(editor, { name: 'A' }), await core.articles.createCategory.execute(editor, { name: 'B' })];
  const childrenOf = async (parentId: string) => categories.list('acme', { parentId }, { after: null, limit: 100 });
  return { core, categories, a, b, childrenOf };
};

/** A move of category `id` under `parentId` that has made its checks and waits before its write, until `releaseMove()`. */
async function moveHeldBeforeItsWrite(core: Awaited<ReturnType<typeof setup>>['core'], id: string, parentId: string) {
  const write = signal();
  const writing = holdNext(core.stores.categories, 'update', write.promise);
  const moving = core.articles.updateCategory.execute(editor, { id, changes: { parentId } });
  moving.catch(() => undefined);
  await writing;
  return { moving, releaseMove: write.fire };
}

describe('Categories under racing writes', () => {
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

  it('refuses a move under a parent when a sub-category was created under the moved one meanwhile, and puts it back as it was', async () => {
    const { core, categories, a, b, childrenOf } = await setup();
    const before = await categories.findById('acme', b.id);
    let child: { id: string } | undefined;
    const moving = whileHeld(
      categories,
      'update',
      () => core.articles.updateCategory.execute(editor, { id: b.id, changes: { parentId: a.id } }),
      async () => (child = await core.articles.createCategory.execute(editor, { name: 'C', parentId: b.id })),
    );
    const refusal = await domainErrorOf(moving);
    expect([refusal.code, refusal.issues?.[0]]).to.deep.equal([ErrorCodes.VALIDATION_FAILED, { path: 'parentId', message: 'cannot be set on a category that has sub-categories (one level of nesting)' }]);
    // Refused, so nothing changed (§6.3): `updatedAt`, and with it the entity tag, as before.
    expect(await categories.findById('acme', b.id)).to.deep.equal(before);
    expect((await childrenOf(b.id)).map((category) => category.id)).to.deep.equal([child?.id]);
    expect(await childrenOf(a.id)).to.deep.equal([]);
  });

  it('files an article created while its sub-category moves to another parent where the sub-category went', async () => {
    const { core, a, b } = await setup();
    const c = await core.articles.createCategory.execute(editor, { name: 'C', parentId: a.id });
    const created = await whileHeld(
      core.stores.articles,
      'insert',
      () => core.articles.create.execute(editor, { title: 'Late', categoryId: a.id, subCategoryId: c.id }),
      () => core.articles.updateCategory.execute(editor, { id: c.id, changes: { parentId: b.id } }),
    );
    expect(created).to.deep.include({ categoryId: b.id, subCategoryId: c.id });
    expect(await core.stores.articles.findById('acme', created.id)).to.deep.include({ categoryId: b.id, subCategoryId: c.id });
  });

  it('files an article renamed while its category is given a parent where the category went', async () => {
    const { core, a, b } = await setup();
    const article = await core.articles.create.execute(editor, { title: 'Filed under B', categoryId: b.id });
    const renamed = await whileHeld(
      core.stores.articles,
      'update',
      () => core.articles.update.execute(editor, { id: article.id, changes: { title: 'Renamed' } }),
      () => core.articles.updateCategory.execute(editor, { id: b.id, changes: { parentId: a.id } }),
    );
    expect(renamed).to.deep.include({ title: 'Renamed', categoryId: a.id, subCategoryId: b.id });
    expect(await core.stores.articles.findById('acme', article.id)).to.deep.include({ categoryId: a.id, subCategoryId: b.id });
  });

  it('files the articles where the category went last when an earlier move’s refile lands after a later move’s', async () => {
    const { core, a, b } = await setup();
    const c = await core.articles.createCategory.execute(editor, { name: 'C', parentId: a.id });
    const article = await core.articles.create.execute(editor, { title: 'In C', categoryId: a.id, subCategoryId: c.id });
    // The move under B writes, then its refile waits while the move to the top writes and refiles.
    const movedUnderB = await whileHeld(
      core.stores.articles,
      'refileCategory',
      () => core.articles.updateCategory.execute(editor, { id: c.id, changes: { parentId: b.id } }),
      () => core.articles.updateCategory.execute(editor, { id: c.id, changes: { parentId: null } }),
    );
    expect(movedUnderB.parentId).to.equal(b.id);
    expect((await core.stores.categories.findById('acme', c.id))?.parentId).to.equal(null);
    expect(await core.stores.articles.findById('acme', article.id)).to.deep.include({ categoryId: c.id, subCategoryId: null });
  });

  it('takes the articles back with a move that is taken back, when an article’s write followed the move meanwhile', async () => {
    const { core, categories, a, b } = await setup();
    const article = await core.articles.create.execute(editor, { title: 'In B', categoryId: b.id });
    // The move of B under A has checked B has no sub-categories; one is created before it writes.
    const { moving, releaseMove } = await moveHeldBeforeItsWrite(core, b.id, a.id);
    await core.articles.createCategory.execute(editor, { name: 'C', parentId: b.id });
    // A rename of the article has checked B is top-level, and writes once B has moved.
    const renameWrite = signal();
    const renameWriting = holdNext(core.stores.articles, 'update', renameWrite.promise);
    const renaming = core.articles.update.execute(editor, { id: article.id, changes: { title: 'Renamed' } });
    await renameWriting;
    const moveSettle = signal();
    const moveSettling = holdNext(categories, 'list', moveSettle.promise);
    releaseMove();
    await moveSettling; // B is under A now: the rename files the article (and B's others) under A
    renameWrite.fire();
    await renaming;
    moveSettle.fire(); // the move finds the sub-category, and is taken back
    const refusal = await domainErrorOf(moving);
    expect(refusal.issues?.[0]).to.deep.equal({ path: 'parentId', message: 'cannot be set on a category that has sub-categories (one level of nesting)' });
    expect((await categories.findById('acme', b.id))?.parentId).to.equal(null);
    expect(await core.stores.articles.findById('acme', article.id)).to.deep.include({ title: 'Renamed', categoryId: b.id, subCategoryId: null });
  });

  it('detaches an article that named a sub-category in the moment before the sub-category was taken back', async () => {
    const { core, categories, a, b, childrenOf } = await setup();
    // The move of B under A has checked B has no sub-categories; C's create has checked B is top-level.
    const { moving, releaseMove } = await moveHeldBeforeItsWrite(core, b.id, a.id);
    const insert = signal();
    const inserting = holdNext(categories, 'insert', insert.promise);
    const creating = core.articles.createCategory.execute(editor, { name: 'C', parentId: b.id });
    creating.catch(() => undefined);
    await inserting;
    // B goes under A; the move then waits before it looks for sub-categories.
    const moveSettle = signal();
    const moveSettling = holdNext(categories, 'list', moveSettle.promise);
    releaseMove();
    await moveSettling;
    // C lands under B, finds B under A and takes itself back; its delete waits.
    const takeBack = signal();
    const takingBack = holdNext(categories, 'delete', takeBack.promise);
    insert.fire();
    await takingBack;
    moveSettle.fire(); // the move finds C, and is taken back: B is top-level again
    expect((await domainErrorOf(moving)).code).to.equal(ErrorCodes.VALIDATION_FAILED);
    // For this moment C is a sub-category of a top-level B, and an article is filed under it.
    const [child] = await childrenOf(b.id);
    const article = await core.articles.create.execute(editor, { title: 'In C', categoryId: b.id, subCategoryId: child!.id });
    takeBack.fire();
    expect((await domainErrorOf(creating)).code).to.equal(ErrorCodes.VALIDATION_FAILED);
    // C is gone, and with it the article's reference to it, as a delete of C would have left it.
    expect(await core.stores.articles.findById('acme', article.id)).to.deep.include({ categoryId: b.id, subCategoryId: null });
    const renamed = await core.articles.update.execute(editor, { id: article.id, changes: { title: 'Renamed' } });
    expect(renamed).to.deep.include({ title: 'Renamed', categoryId: b.id, subCategoryId: null });
  });

  it('keeps one level when a third write comes between a move and its take-back: the third is refused by its own check', async () => {
    const { core, categories, a, b, childrenOf } = await setup();
    // The move of B under A has checked B has no sub-categories; one is created before it writes.
    const { moving, releaseMove } = await moveHeldBeforeItsWrite(core, b.id, a.id);
    const c = await core.articles.createCategory.execute(editor, { name: 'C', parentId: b.id });
    const moveSettle = signal();
    const moveSettling = holdNext(categories, 'list', moveSettle.promise);
    releaseMove();
    await moveSettling;
    // B is under A with C under it, for now: a rename of B checks the whole record and is refused,
    // so it cannot write on top of the move and keep the move's parent.
    const renaming = core.articles.updateCategory.execute(editor, { id: b.id, changes: { name: 'B, renamed' } });
    expect((await domainErrorOf(renaming)).code).to.equal(ErrorCodes.VALIDATION_FAILED);
    moveSettle.fire();
    expect((await domainErrorOf(moving)).code).to.equal(ErrorCodes.VALIDATION_FAILED);
    expect(await categories.findById('acme', b.id)).to.deep.include({ name: 'B', parentId: null });
    expect((await childrenOf(b.id)).map((category) => category.id)).to.deep.equal([c.id]);
  });

  it('finishes, when retried, a move that failed between the category’s write and its articles’', async () => {
    const { core, a, b } = await setup();
    const c = await core.articles.createCategory.execute(editor, { name: 'C', parentId: a.id });
    const article = await core.articles.create.execute(editor, { title: 'In C', categoryId: a.id, subCategoryId: c.id });
    const articles = core.stores.articles;
    const refile = articles.refileCategory;
    articles.refileCategory = async () => Promise.reject(new Error('store unreachable'));
    const move = () => core.articles.updateCategory.execute(editor, { id: c.id, changes: { parentId: b.id } });
    try {
      await move().then(
        () => expect.fail('the move should have failed'),
        (error: Error) => expect(error.message).to.equal('store unreachable'),
      );
    } finally {
      articles.refileCategory = refile;
    }
    expect(await articles.findById('acme', article.id)).to.deep.include({ categoryId: a.id, subCategoryId: c.id });
    await move();
    expect(await articles.findById('acme', article.id)).to.deep.include({ categoryId: b.id, subCategoryId: c.id });
  });

  describe('an article a move left where its category was (the move killed before its refile)', () => {
    const unfinishedMove = async () => {
      const { core, a, b } = await setup();
      const c = await core.articles.createCategory.execute(editor, { name: 'C', parentId: a.id });
      const article = await core.articles.create.execute(editor, { title: 'In C', categoryId: a.id, subCategoryId: c.id });
      const moved = await core.stores.categories.findById('acme', c.id);
      await core.stores.categories.update({ ...moved!, parentId: b.id, updatedAt: new Date(moved!.updatedAt.getTime() + 1) }, moved!.updatedAt);
      return { core, a, b, c, article };
    };

    it('takes an update that names no category, filed where the move files it', async () => {
      const { core, b, c, article } = await unfinishedMove();
      const renamed = await core.articles.update.execute(editor, { id: article.id, changes: { title: 'Renamed' } });
      expect(renamed).to.deep.include({ title: 'Renamed', categoryId: b.id, subCategoryId: c.id });
      expect(await core.stores.articles.findById('acme', article.id)).to.deep.include({ categoryId: b.id, subCategoryId: c.id });
    });

    it('still checks a filing the update names, as given', async () => {
      const { core, a, c, article } = await unfinishedMove();
      const refusal = await domainErrorOf(core.articles.update.execute(editor, { id: article.id, changes: { categoryId: a.id, subCategoryId: c.id } }));
      expect([refusal.code, refusal.issues?.[0]?.path]).to.deep.equal([ErrorCodes.VALIDATION_FAILED, 'subCategoryId']);
    });
  });
});
