import { authorRoutes, RouteModuleToken } from '@cms/adapter-koa';
import {
  ArticleRepositoryToken,
  AuthorRepositoryToken,
  CreateAuthor,
  DeleteAuthor,
  GetAuthor,
  type ArticleRepository,
  type AuthorRepository,
  type Clock,
} from '@cms/core';
import { ContainerModule } from 'inversify';
import { ServerTokens } from './server-tokens.js';

export const authorsModule = new ContainerModule(({ bind }) => {
  bind(CreateAuthor).toResolvedValue((authors: AuthorRepository, clock: Clock) => new CreateAuthor(authors, clock), [AuthorRepositoryToken, ServerTokens.Clock]);
  bind(GetAuthor).toResolvedValue((authors: AuthorRepository) => new GetAuthor(authors), [AuthorRepositoryToken]);
  bind(DeleteAuthor).toResolvedValue(
    (authors: AuthorRepository, articles: ArticleRepository) => new DeleteAuthor(authors, articles),
    [AuthorRepositoryToken, ArticleRepositoryToken],
  );
  bind(RouteModuleToken).toResolvedValue(
    (create: CreateAuthor, get: GetAuthor, remove: DeleteAuthor) => authorRoutes({ create, get, remove }),
    [CreateAuthor, GetAuthor, DeleteAuthor],
  );
});
