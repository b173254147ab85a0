/** §2.2 authors: create, read, delete (the articles of a deleted author stay, with `authorId: null`). */
import { CreateAuthor, DeleteAuthor, ErrorCodes, type CreateAuthorInput, type GetAuthor } from '@cms/core';
import { idParamsSchema } from '../http/record-schemas.js';
import { defineRoute, type RouteModule } from '../routing/route-definition.js';
import { authorDataSchema, createAuthorBodySchema } from './authors.schemas.js';

export interface AuthorUseCases {
  readonly create: CreateAuthor;
  readonly get: GetAuthor;
  readonly remove: DeleteAuthor;
}

export function authorRoutes({ create, get, remove }: AuthorUseCases): RouteModule {
  return [
    defineRoute<CreateAuthorInput>({
      operationId: 'createAuthor',
      method: 'POST',
      path: '/authors/create',
      summary: 'Create an author',
      tags: ['authors'],
      access: { rule: CreateAuthor.access },
      body: createAuthorBodySchema,
      success: { status: 201, message: 'Author created successfully', data: authorDataSchema },
      etag: 'author',
      handler: async ({ caller, body }) => ({ author: await create.execute(caller, body) }),
    }),
    defineRoute<unknown, { id: string }>({
      operationId: 'getAuthor',
      method: 'GET',
      path: '/authors/getById/:id',
      summary: 'Read an author',
      tags: ['authors'],
      params: idParamsSchema('id'),
      invalidParams: ErrorCodes.AUTHOR_NOT_FOUND,
      success: { status: 200, message: 'Author retrieved successfully', data: authorDataSchema },
      etag: 'author',
      errors: [ErrorCodes.AUTHOR_NOT_FOUND],
      handler: async ({ caller, params }) => ({ author: await get.execute(caller, { id: params.id }) }),
    }),
    defineRoute<unknown, { id: string }>({
      operationId: 'deleteAuthor',
      method: 'DELETE',
      path: '/authors/delete/:id',
      summary: 'Delete an author; its articles remain, with authorId null',
      tags: ['authors'],
      access: { rule: DeleteAuthor.access },
      params: idParamsSchema('id'),
      invalidParams: ErrorCodes.AUTHOR_NOT_FOUND,
      success: { status: 200, message: 'Author deleted successfully' },
      ifMatch: true,
      errors: [ErrorCodes.AUTHOR_NOT_FOUND],
      handler: async ({ caller, params, ifMatch }) => {
        await remove.execute(caller, { id: params.id, ifMatch });
        return null;
      },
    }),
  ];
}
