import { repurposeRoutes, RouteModuleToken } from '@cms/adapter-koa';
import {
  GetRepurposeTemplate,
  LanguageCatalogToken,
  RepurposeTemplateRepositoryToken,
  UpdateRepurposeTemplate,
  type Clock,
  type LanguageCatalog,
  type RepurposeTemplateRepository,
} from '@cms/core';
import { ContainerModule } from 'inversify';
import { ServerTokens } from './server-tokens.js';

export const repurposeModule = new ContainerModule(({ bind }) => {
  bind(GetRepurposeTemplate).toResolvedValue(
    (repo: RepurposeTemplateRepository, clock: Clock) => new GetRepurposeTemplate(repo, clock),
    [RepurposeTemplateRepositoryToken, ServerTokens.Clock],
  );
  bind(UpdateRepurposeTemplate).toResolvedValue(
    (repo: RepurposeTemplateRepository, languages: LanguageCatalog, clock: Clock) => new UpdateRepurposeTemplate(repo, languages, clock),
    [RepurposeTemplateRepositoryToken, LanguageCatalogToken, ServerTokens.Clock],
  );
  bind(RouteModuleToken).toResolvedValue(
    (get: GetRepurposeTemplate, update: UpdateRepurposeTemplate) => repurposeRoutes({ get, update }),
    [GetRepurposeTemplate, UpdateRepurposeTemplate],
  );
});
