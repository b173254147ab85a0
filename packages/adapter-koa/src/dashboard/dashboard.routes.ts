/** PUT and GET /reports/dashboardConfig: the caller's dashboard layout. */
import { GetDashboardConfig, SaveDashboardConfig, type DashboardConfigInput } from '@cms/core';
import { defineRoute, type RouteModule } from '../routing/route-definition.js';
import { dashboardConfigBodySchema, dashboardConfigDataSchema } from './dashboard.schemas.js';

export interface DashboardUseCases {
  readonly save: SaveDashboardConfig;
  readonly get: GetDashboardConfig;
}

export function dashboardRoutes({ save, get }: DashboardUseCases): RouteModule {
  return [
    defineRoute({
      operationId: 'saveDashboardConfig',
      method: 'PUT',
      path: '/reports/dashboardConfig',
      summary: 'Save or reset the caller’s dashboard layout',
      tags: ['dashboard'],
      access: { rule: SaveDashboardConfig.access, readsBearer: true },
      body: dashboardConfigBodySchema,
      bodyRequired: false,
      dropsUnknownKeys: true,
      // The use case checks the body after `If-Match` (412 before 400, as an update's: §6.3).
      bodyCheckedBy: 'use-case',
      invalidJsonAt: 'body-check',
      ifMatch: true,
      success: { status: 200, message: 'Dashboard config updated successfully', data: dashboardConfigDataSchema },
      etag: 'dashboardConfig',
      serverErrorMessage: 'Failed to update dashboard config',
      handler: async ({ caller, body, ifMatch, checkBody }) => ({
        dashboardConfig: await save.execute(caller, { config: body as DashboardConfigInput | undefined, ifMatch, checkShape: checkBody }),
      }),
    }),
    defineRoute({
      operationId: 'getDashboardConfig',
      method: 'GET',
      path: '/reports/dashboardConfig',
      summary: 'Read the caller’s dashboard layout (the default when none is stored)',
      tags: ['dashboard'],
      access: { rule: GetDashboardConfig.access, readsBearer: true },
      success: { status: 200, message: 'Dashboard config retrieved successfully', data: dashboardConfigDataSchema },
      etag: 'dashboardConfig',
      handler: async ({ caller }) => ({ dashboardConfig: await get.execute(caller) }),
    }),
  ];
}
