/** Issue 22 item 1: a create input with a property the operation does not know, or a caller whose tenant id is not one, is refused by core. */
import { expect } from 'chai';
import { StaticCaptchaVerifier } from '../captcha/captcha.ports.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { domainErrorOf } from '../testing/expect-domain-error.js';
import { userCaller } from '../testing/callers.js';
import { createCore } from './create-core.js';

describe('createCore: create inputs with unknown properties', () => {
  const core = createCore({ captcha: new StaticCaptchaVerifier(new Map()) });
  const editor = userCaller('acme', 'ed-1', 'editor');
  const cases: Array<[string, () => Promise<unknown>, string]> = [
    ['an author', () => core.authors.create.execute(editor, { name: 'Ada', twitter: '@ada' } as never), 'twitter'],
    ['a category', () => core.articles.createCategory.execute(editor, { name: 'News', slug: 'news' } as never), 'slug'],
    ['an article', () => core.articles.create.execute(editor, { title: 'Hi', likes: 5 } as never), 'likes'],
    ['a comment', () => core.comments.create.execute(editor, { articleId: '0123456789abcdef01234567', comment: { content: 'ok', rating: 5 } as never }), 'comment.rating'],
    ['an author that is not an object', () => core.authors.create.execute(editor, ['Ada'] as never), ''],
  ];
  for (const [name, run] of [
    ['an article', () => core.articles.create.execute(userCaller('Acme!', 'ed-1', 'editor'), { title: 'Hi' })],
    ['a reaction', () => core.articles.react.execute(userCaller('no such tenant', 'u'), { articleId: '0123456789abcdef01234567', reaction: { type: 'like' } })],
  ] as const) {
    it(`refuses ${name} for a tenant id that is not one`, async () => {
      const error = await domainErrorOf(run());
      expect([error.code, error.issues[0]?.path]).to.deep.equal([ErrorCodes.VALIDATION_FAILED, 'tenantId']);
    });
  }

  for (const [name, run, path] of cases) {
    it(`refuses ${name} with VALIDATION_FAILED at ${path || 'the input'}`, async () => {
      const error = await domainErrorOf(run());
      expect(error.code).to.equal(ErrorCodes.VALIDATION_FAILED);
      expect(error.issues[0]?.path).to.equal(path);
    });
  }
});
