import type { Caller } from '../shared/caller.js';
import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { wellFormedIdOr } from '../shared/input-rules.js';
import { toAuthorView, type AuthorView } from './author.js';
import type { AuthorRepository } from './authors.ports.js';

/** The record, by its id as the caller gave it (checked: a malformed one is refused). */
export interface GetAuthorInput {
  readonly id: string;
}

/** Reads an author of the caller's tenant; a malformed or unknown id is `AUTHOR_NOT_FOUND`. */
export class GetAuthor {
  constructor(private readonly authors: AuthorRepository) {}

  async execute(caller: Caller, { id: authorId }: GetAuthorInput): Promise<AuthorView> {
    const id = wellFormedIdOr(authorId, ErrorCodes.AUTHOR_NOT_FOUND);
    const author = await this.authors.findById(caller.tenantId, id);
    if (!author) throw new DomainError(ErrorCodes.AUTHOR_NOT_FOUND, 'Author not found');
    return toAuthorView(author);
  }
}
