import type { Clock } from '../shared/clock.js';
import { defaultRepurposeTemplate, type RepurposeTemplate } from './repurpose-template.js';
import type { RepurposeTemplateRepository } from './repurpose.ports.js';
import type { Caller } from '../shared/caller.js';
import { requireTenantId } from '../tenancy/tenant.js';

/** The template provisioner: returns the tenant's template, creating it with defaults on first read. */
export class GetRepurposeTemplate {
  constructor(
    private readonly templates: RepurposeTemplateRepository,
    private readonly clock: Clock,
  ) {}

  /** A first read stores the template, so it checks the tenant id as every write does (decision 0801). */
  async execute(caller: Caller): Promise<RepurposeTemplate> {
    requireTenantId(caller.tenantId);
    return this.templates.findOrCreate(defaultRepurposeTemplate(caller.tenantId, this.clock.now()));
  }
}
