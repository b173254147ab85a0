/** §7 webhooks: management (bearer admin) and the delivery log. */
import { WEBHOOK_ADMIN, type CreateWebhook, type CreateWebhookInput, type DeleteWebhook, type GetWebhook, type ListWebhookDeliveries, type ListWebhooks, type ListWebhooksQuery, type UpdateWebhook } from '@cms/core';
import { listDataSchema, listQuerySchema } from '../http/list-schemas.js';
import { idParamsSchema } from '../http/record-schemas.js';
import { defineRoute, type RouteModule } from '../routing/route-definition.js';
import {
  createdWebhookDataSchema,
  createWebhookBodySchema,
  deliveriesDataSchema,
  updateWebhookBodySchema,
  webhookDataSchema,
} from './webhooks.schemas.js';

export interface WebhookUseCases {
  readonly create: CreateWebhook;
  readonly list: ListWebhooks;
  readonly get: GetWebhook;
  readonly update: UpdateWebhook;
  readonly remove: DeleteWebhook;
  readonly deliveries: ListWebhookDeliveries;
}

const admin = { rule: WEBHOOK_ADMIN } as const;

const byId = { params: idParamsSchema('id'), invalidParams: 'INVALID_WEBHOOK_ID' } as const;

export function webhookRoutes({ create, list, get, update, remove, deliveries }: WebhookUseCases): RouteModule {
  return [
    defineRoute<CreateWebhookInput>({
      operationId: 'createWebhook',
      method: 'POST',
      path: '/webhooks/create',
      summary: 'Subscribe a URL to events; the answer carries the signing secret, shown only here',
      tags: ['webhooks'],
      access: admin,
      body: createWebhookBodySchema,
      success: { status: 201, message: 'Webhook created successfully', data: createdWebhookDataSchema },
      etag: 'webhook',
      errors: ['WEBHOOK_URL_NOT_ALLOWED', 'WEBHOOK_LIMIT_REACHED'],
      handler: async ({ caller, body }) => ({ webhook: await create.execute(caller, body) }),
    }),
    defineRoute<unknown, unknown, ListWebhooksQuery>({
      operationId: 'listWebhooks',
      method: 'GET',
      path: '/webhooks/list',
      summary: 'List webhooks, newest first',
      tags: ['webhooks'],
      access: admin,
      query: listQuerySchema(),
      success: { status: 200, message: 'Webhooks retrieved successfully', data: listDataSchema('webhooks', webhookDataSchema, 'webhook') },
      errors: ['INVALID_CURSOR'],
      handler: async ({ caller, query }) => list.execute(caller, query),
    }),
    defineRoute<unknown, { id: string }>({
      operationId: 'getWebhook',
      method: 'GET',
      path: '/webhooks/getById/:id',
      summary: 'Read a webhook (never its secret)',
      tags: ['webhooks'],
      access: admin,
      ...byId,
      success: { status: 200, message: 'Webhook retrieved successfully', data: webhookDataSchema },
      etag: 'webhook',
      errors: ['WEBHOOK_NOT_FOUND'],
      handler: async ({ caller, params }) => ({ webhook: await get.execute(caller, { id: params.id }) }),
    }),
    defineRoute<CreateWebhookInput, { id: string }>({
      operationId: 'updateWebhook',
      method: 'PATCH',
      path: '/webhooks/update/:id',
      summary: 'Change a webhook; an absent property is unchanged',
      tags: ['webhooks'],
      access: admin,
      ...byId,
      body: updateWebhookBodySchema,
      // No body is no change, as on every other PATCH: the document says so.
      bodyRequired: false,
      bodyCheckedBy: 'use-case',
      bodyAt: 'changes',
      success: { status: 200, message: 'Webhook updated successfully', data: webhookDataSchema },
      etag: 'webhook',
      ifMatch: true,
      errors: ['WEBHOOK_NOT_FOUND', 'WEBHOOK_URL_NOT_ALLOWED'],
      handler: async ({ caller, params, body, ifMatch }) => ({ webhook: await update.execute(caller, { id: params.id, changes: body, ifMatch }) }),
    }),
    defineRoute<unknown, { id: string }>({
      operationId: 'deleteWebhook',
      method: 'DELETE',
      path: '/webhooks/delete/:id',
      summary: 'Delete a webhook; it receives nothing more',
      tags: ['webhooks'],
      access: admin,
      ...byId,
      success: { status: 200, message: 'Webhook deleted successfully' },
      ifMatch: true,
      errors: ['WEBHOOK_NOT_FOUND'],
      handler: async ({ caller, params, ifMatch }) => {
        await remove.execute(caller, { id: params.id, ifMatch });
        return null;
      },
    }),
    defineRoute<unknown, { id: string }>({
      operationId: 'listWebhookDeliveries',
      method: 'GET',
      path: '/webhooks/:id/deliveries',
      summary: 'The latest 100 deliveries of a webhook, newest first',
      tags: ['webhooks'],
      access: admin,
      ...byId,
      success: { status: 200, message: 'Deliveries retrieved successfully', data: deliveriesDataSchema },
      errors: ['WEBHOOK_NOT_FOUND'],
      handler: async ({ caller, params }) => ({ deliveries: await deliveries.execute(caller, { id: params.id }) }),
    }),
  ];
}
