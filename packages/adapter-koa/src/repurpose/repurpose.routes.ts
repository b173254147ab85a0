/** GET and PUT /ai/repurpose/template: the tenant's repurpose template. */
import { UpdateRepurposeTemplate, type GetRepurposeTemplate, type RepurposeTemplatePatch } from '@cms/core';
import { defineRoute, type RouteModule } from '../routing/route-definition.js';
import { repurposeTemplatePatchSchema, repurposeTemplateSchema } from './repurpose.schemas.js';

export interface RepurposeUseCases {
  readonly get: GetRepurposeTemplate;
  readonly update: UpdateRepurposeTemplate;
}

export function repurposeRoutes({ get, update }: RepurposeUseCases): RouteModule {
  return [
    defineRoute({
      operationId: 'getRepurposeTemplate',
      method: 'GET',
      path: '/ai/repurpose/template',
      summary: 'Read the tenant’s repurpose template, creating it with the defaults on first read',
      tags: ['ai'],
      success: { status: 200, message: 'Repurpose template loaded', data: repurposeTemplateSchema },
      etag: true,
      handler: ({ caller }) => get.execute(caller),
    }),
    defineRoute<RepurposeTemplatePatch>({
      operationId: 'updateRepurposeTemplate',
      method: 'PUT',
      path: '/ai/repurpose/template',
      summary: 'Change parts of the tenant’s repurpose template',
      tags: ['ai'],
      access: { rule: UpdateRepurposeTemplate.access, readsBearer: true },
      body: repurposeTemplatePatchSchema,
      // The use case checks the body after `If-Match` (412 before 400, as an update's: §6.3).
      bodyCheckedBy: 'use-case',
      invalidJsonAt: 'body-check',
      ifMatch: true,
      success: { status: 200, message: 'Repurpose template updated', data: repurposeTemplateSchema },
      etag: true,
      handler: ({ caller, body, ifMatch, checkBody }) => update.execute(caller, { changes: body, ifMatch, checkShape: checkBody }),
    }),
  ];
}
