/** The editable fields of an author, checked the same way by create and update (one source). */
import { optionalEmail, optionalHttpUrl, optionalLongText, requiredText } from '../shared/input-rules.js';
import { AUTHOR_BIO_MAX, AUTHOR_NAME_MAX, type Author } from './author.js';

export interface AuthorInput {
  readonly name?: unknown;
  readonly email?: unknown;
  readonly bio?: unknown;
  readonly avatarUrl?: unknown;
}

export const AUTHOR_INPUT_KEYS = ['name', 'email', 'bio', 'avatarUrl'] as const;

export function authorFields(input: AuthorInput): Pick<Author, (typeof AUTHOR_INPUT_KEYS)[number]> {
  return {
    name: requiredText(input.name, 'name', AUTHOR_NAME_MAX),
    email: optionalEmail(input.email, 'email'),
    bio: optionalLongText(input.bio, 'bio', AUTHOR_BIO_MAX, null),
    avatarUrl: optionalHttpUrl(input.avatarUrl, 'avatarUrl'),
  };
}
