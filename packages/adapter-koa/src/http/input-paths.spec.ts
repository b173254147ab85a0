import { expect } from 'chai';
import { issuesError, validationError } from '@cms/core/internal';
import { BODY_PATHS, httpIssues, httpLocated } from './input-paths.js';

describe('httpIssues: core domain paths as HTTP request paths', () => {
  const cases: Array<[string, ReturnType<typeof validationError>, string]> = [
    ['a property', validationError('sections[0].fields[1].type', 'must be one of text'), 'body.sections[0].fields[1].type must be one of text'],
    ['the whole input', validationError('', 'must be an object'), 'body must be an object'],
    ['an index of the input', validationError('[2]', 'is not allowed'), 'body[2] is not allowed'],
    [
      'a message naming another input path',
      issuesError([{ path: 'categoryId', message: 'is required with subCategoryId', related: 'subCategoryId' }]),
      'body.categoryId is required with body.subCategoryId',
    ],
    ['a path into the stored record', issuesError([{ path: 'relations.clients', message: 'is full', onRecord: true }]), 'relations.clients is full'],
  ];
  for (const [name, error, message] of cases) {
    it(`renames ${name}`, () => {
      const mapped = httpIssues(error, BODY_PATHS);
      expect(mapped.message).to.equal(message);
      expect(mapped.issues).to.have.length(1);
      expect(Object.keys(mapped.issues[0]!)).to.deep.equal(['path', 'message']);
    });
  }

  it('names a query input as query, and the body property of an input as the body', () => {
    expect(httpIssues(validationError('limit', 'must be an integer'), { location: 'query' }).message).to.equal('query.limit must be an integer');
    expect(httpIssues(validationError('reaction.type', 'must be one of like'), { location: 'body', bodyAt: 'reaction' }).message).to.equal('body.type must be one of like');
    expect(httpIssues(validationError('reaction', 'must be an object'), { location: 'body', bodyAt: 'reaction' }).message).to.equal('body must be an object');
  });

  it('keeps the schema checks’ own errors, which already name HTTP paths', () => {
    const error = httpLocated(validationError('body.title', 'is required'));
    expect(httpIssues(error, BODY_PATHS).message).to.equal('body.title is required');
  });
});
