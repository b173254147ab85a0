import type { Clock } from '../shared/clock.js';
import { defaultRepurposeTemplate, type RepurposeTemplate } from './repurpose-template.js';
import type { RepurposeTemplateRepository } from './repurpose.ports.js';
import type { Caller } from '../shared/caller.js';

/** The template provisioner: returns the tenant's template, creating it with defaults on first read. */
export class GetRepurposeTemplate {
  constructor(
    private readonly templates: RepurposeTemplateRepository,
    private readonly clock: Clock,
  ) {}

  execute(caller: Caller): Promise<RepurposeTemplate> {
    return this.templates.findOrCreate(defaultRepurposeTemplate(caller.tenantId, this.clock.now()));
  }
}
