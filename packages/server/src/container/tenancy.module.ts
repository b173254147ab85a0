import {
  ApiKeyRepositoryToken,
  AuthenticateApiKey,
  ManageTenants,
  TenantRepositoryToken,
  type ApiKeyRepository,
  type Clock,
  type TenantRepository,
} from '@cms/core';
import { ContainerModule } from 'inversify';
import { ServerTokens } from './server-tokens.js';

export const tenancyModule = new ContainerModule(({ bind }) => {
  bind(AuthenticateApiKey).toResolvedValue((keys: ApiKeyRepository) => new AuthenticateApiKey(keys), [ApiKeyRepositoryToken]);
  bind(ManageTenants).toResolvedValue(
    (tenants: TenantRepository, keys: ApiKeyRepository, clock: Clock) => new ManageTenants(tenants, keys, clock),
    [TenantRepositoryToken, ApiKeyRepositoryToken, ServerTokens.Clock],
  );
});
