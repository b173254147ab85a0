import { expect } from 'chai';
import { ErrorCodes } from '../shared/error-codes.js';
import { anonymousCaller, userCaller } from '../testing/callers.js';
import { memoryEngagement } from '../testing/engagement-fixture.js';
import { domainErrorOf } from '../testing/expect-domain-error.js';
import { whileHeld } from '../testing/held-calls.js';

describe('CreateAuthor, GetAuthor and DeleteAuthor', () => {
  const editor = userCaller('acme', 'ed-1', 'editor');

  describe('when an admin or editor creates an author', () => {
    it('stores every field with timestamps and returns it without the tenant', async () => {
      const world = memoryEngagement();
      const author = await world.createAuthor.execute(userCaller('acme', 'ad-1', 'admin'), {
        name: '  Ada Lovelace ',
        email: 'ada@example.com',
        bio: 'Notes on the engine.',
        avatarUrl: 'https://cdn.example.com/ada.png',
      });
      expect(Object.keys(author)).to.have.members(['id', 'name', 'email', 'bio', 'avatarUrl', 'createdAt', 'updatedAt']);
      expect(author).to.include({ name: 'Ada Lovelace', email: 'ada@example.com', bio: 'Notes on the engine.', avatarUrl: 'https://cdn.example.com/ada.png' });
      expect(author.id).to.match(/^[0-9a-f]{24}$/);
      expect(author.createdAt.toISOString()).to.equal('2026-03-04T05:06:07.890Z');
      expect(await world.getAuthor.execute(editor, { id: author.id })).to.deep.equal(author);
    });

    it('sets the optional fields to null when absent', async () => {
      const author = await memoryEngagement().createAuthor.execute(editor, { name: 'Bo', email: null });
      expect(author).to.include({ email: null, bio: null, avatarUrl: null });
    });

    const refusals: Array<[string, object, string]> = [
      ['no name', {}, 'name is required'],
      ['a blank name', { name: '   ' }, 'name must not be blank'],
      ['a 201-character name', { name: 'x'.repeat(201) }, 'name must be at most 200 characters'],
      ['a bad e-mail', { name: 'A', email: 'not-an-address' }, 'email must be an e-mail address'],
      ['a 5001-character bio', { name: 'A', bio: 'x'.repeat(5001) }, 'bio must be at most 5000 characters'],
      ['a relative avatar URL', { name: 'A', avatarUrl: '/a.png' }, 'avatarUrl must be an absolute http(s) URL'],
      ['an ftp avatar URL', { name: 'A', avatarUrl: 'ftp://example.com/a.png' }, 'avatarUrl must be an absolute http(s) URL'],
    ];
    for (const [name, input, message] of refusals) {
      it(`refuses ${name}`, async () => {
        const error = await domainErrorOf(memoryEngagement().createAuthor.execute(editor, input));
        expect(error.code).to.equal(ErrorCodes.VALIDATION_FAILED);
        expect(error.message).to.equal(message);
      });
    }
  });

  describe('when the caller may not manage authors', () => {
    const cases = [
      ['no user', anonymousCaller('acme'), ErrorCodes.UNAUTHORIZED],
      ['an x-user-id header only', userCaller('acme', 'ed-1', 'editor', false), ErrorCodes.UNAUTHORIZED],
      ['role author', userCaller('acme', 'au-1', 'author'), ErrorCodes.FORBIDDEN],
      ['role member', userCaller('acme', 'm-1', 'member'), ErrorCodes.FORBIDDEN],
    ] as const;
    for (const [name, caller, code] of cases) {
      it(`refuses creation and deletion for ${name} with ${code}, before looking at the id`, async () => {
        const world = memoryEngagement();
        expect((await domainErrorOf(world.createAuthor.execute(caller, { name: 'A' }))).code).to.equal(code);
        expect((await domainErrorOf(world.deleteAuthor.execute(caller, { id: 'not-an-id' }))).code).to.equal(code);
      });
    }
  });

  describe('when an author is deleted', () => {
    it('removes it, detaches its articles in the tenant, and a second delete is not found', async () => {
      const world = memoryEngagement();
      const author = await world.createAuthor.execute(editor, { name: 'Ada' });
      const other = await world.createAuthor.execute(editor, { name: 'Bo' });
      const mine = await world.createArticle.execute(editor, { title: 'One', authorId: author.id });
      const theirs = await world.createArticle.execute(editor, { title: 'Two', authorId: other.id });
      await world.deleteAuthor.execute(editor, { id: author.id.toUpperCase() });
      expect((await domainErrorOf(world.getAuthor.execute(editor, { id: author.id }))).code).to.equal(ErrorCodes.AUTHOR_NOT_FOUND);
      expect((await world.getArticle.execute(editor, { id: mine.id })).authorId).to.equal(null);
      expect((await world.getArticle.execute(editor, { id: theirs.id })).authorId).to.equal(other.id);
      expect((await domainErrorOf(world.deleteAuthor.execute(editor, { id: author.id }))).code).to.equal(ErrorCodes.AUTHOR_NOT_FOUND);
    });

    it('answers AUTHOR_NOT_FOUND for a malformed id, an unknown id and another tenant’s author', async () => {
      const world = memoryEngagement();
      const author = await world.createAuthor.execute(editor, { name: 'Ada' });
      for (const [caller, id] of [
        [editor, 'xyz'],
        [editor, '0123456789abcdef01234567'],
        [userCaller('other', 'ed-9', 'editor'), author.id],
      ] as const) {
        expect((await domainErrorOf(world.deleteAuthor.execute(caller, { id: id }))).code).to.equal(ErrorCodes.AUTHOR_NOT_FOUND);
        expect((await domainErrorOf(world.getAuthor.execute(caller, { id: id }))).code).to.equal(ErrorCodes.AUTHOR_NOT_FOUND);
      }
      expect((await world.getAuthor.execute(editor, { id: author.id })).name).to.equal('Ada');
    });
  });

  describe('when the author is deleted while an article naming it is being created', () => {
    it('stores the article with authorId null, as if it had existed before the deletion', async () => {
      const world = memoryEngagement();
      const author = await world.createAuthor.execute(editor, { name: 'Ada' });
      const { authors } = world.repositories;
      const findById = authors.findById.bind(authors);
      let calls = 0;
      // The first lookup (the reference check) still sees the author; delete it right after.
      authors.findById = async (tenantId, id) => {
        const found = await findById(tenantId, id);
        if (++calls === 1) await world.deleteAuthor.execute(editor, { id: author.id });
        return found;
      };
      const article = await world.createArticle.execute(editor, { title: 'Race', authorId: author.id });
      expect(article.authorId).to.equal(null);
      expect((await world.getArticle.execute(editor, { id: article.id })).authorId).to.equal(null);
    });
  });

  describe('when an article naming the author lands after the delete cleared the articles, before the author went', () => {
    it('clears it too: no article is left naming the deleted author', async () => {
      const world = memoryEngagement();
      const author = await world.createAuthor.execute(editor, { name: 'Ada' });
      let article: { readonly id: string; readonly authorId: string | null } | undefined;
      await whileHeld(world.repositories.authors, 'delete', () => world.deleteAuthor.execute(editor, { id: author.id }), async () => {
        // The author is still there: the article's own checks pass and it keeps the id.
        article = await world.createArticle.execute(editor, { title: 'Late', authorId: author.id });
        expect(article.authorId).to.equal(author.id);
      });
      expect((await world.getArticle.execute(editor, { id: article!.id })).authorId).to.equal(null);
    });
  });
});
