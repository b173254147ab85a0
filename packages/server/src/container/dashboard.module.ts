import { dashboardRoutes, RouteModuleToken } from '@cms/adapter-koa';
import {
  DashboardConfigRepositoryToken,
  GetDashboardConfig,
  SaveDashboardConfig,
  type Clock,
  type DashboardConfigRepository,
} from '@cms/core';
import { ContainerModule } from 'inversify';
import { ServerTokens } from './server-tokens.js';

export const dashboardModule = new ContainerModule(({ bind }) => {
  bind(SaveDashboardConfig).toResolvedValue(
    (repo: DashboardConfigRepository, clock: Clock) => new SaveDashboardConfig(repo, clock),
    [DashboardConfigRepositoryToken, ServerTokens.Clock],
  );
  bind(GetDashboardConfig).toResolvedValue((repo: DashboardConfigRepository) => new GetDashboardConfig(repo), [DashboardConfigRepositoryToken]);
  bind(RouteModuleToken).toResolvedValue((save: SaveDashboardConfig, get: GetDashboardConfig) => dashboardRoutes({ save, get }), [SaveDashboardConfig, GetDashboardConfig]);
});
