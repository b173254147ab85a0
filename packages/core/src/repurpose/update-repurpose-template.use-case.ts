/**
 * Partial update of the tenant's repurpose template. Each given property becomes one atomic
 * `set`, so two editors changing different platforms at once both keep their change. With an
 * `If-Match` naming tags, the template must carry one of them, checked before the body (the
 * order of §6.3), and the `set` lands only while it still does
 * (docs/decisions/0814-dashboard-and-template-entity-tags.md).
 */
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import type { UpdateRequest } from '../shared/conditional-update.js';
import { validationError } from '../shared/domain-error.js';
import { checkIfMatch, namesVersion, nextUpdatedAt, preconditionFailed } from '../shared/entity-tag.js';
import type { LanguageCatalog } from '../shared/languages.js';
import { requiresUser } from '../shared/access.js';
import { requireUser } from '../shared/require-user.js';
import {
  CTA_TEMPLATE_MAX,
  HASHTAG_STYLE_MAX,
  LENGTHS,
  MAX_HASHTAGS_LIMIT,
  PLATFORMS,
  TONES,
  defaultRepurposeTemplate,
  type Length,
  type Platform,
  type RepurposeTemplate,
  type Tone,
} from './repurpose-template.js';
import type { RepurposeTemplateRepository, TemplateChange } from './repurpose.ports.js';
import { requireTenantId } from '../tenancy/tenant.js';
import { exceedsCharacters, isAbsent, isJsonObject, requireKnownKeys, requireObject } from '../shared/shape-rules.js';

const PATCH_KEYS: ReadonlySet<string> = new Set(['defaults', 'platforms']);

export interface RepurposeTemplatePatch {
  defaults?: { language?: string; tone?: Tone; length?: Length };
  platforms?: Partial<
    Record<Platform, { tone?: Tone; length?: Length; ctaTemplate?: string; hashtagStyle?: string; maxHashtags?: number }>
  >;
}

/** An update: the patch as sent and the request's `If-Match`. */
export interface UpdateRepurposeTemplateInput extends UpdateRequest {
  readonly changes: RepurposeTemplatePatch;
}

/** A check of one value: what is wrong with it, or undefined. */
type Rule = (value: unknown) => string | undefined;

const enumRule = (allowed: readonly string[]): Rule => (value) =>
  typeof value === 'string' && allowed.includes(value) ? undefined : `must be one of ${allowed.join(', ')}`;
const textRule = (max: number): Rule => (value) =>
  typeof value === 'string' && !exceedsCharacters(value, max) ? undefined : `must be a string of at most ${max} characters`;
const hashtagRule: Rule = (value) =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_HASHTAGS_LIMIT
    ? undefined
    : `must be a whole number from 0 to ${MAX_HASHTAGS_LIMIT}`;
const PLATFORM_RULES: Record<string, Rule> = {
  tone: enumRule(TONES),
  length: enumRule(LENGTHS),
  ctaTemplate: textRule(CTA_TEMPLATE_MAX),
  hashtagStyle: textRule(HASHTAG_STYLE_MAX),
  maxHashtags: hashtagRule,
};

export class UpdateRepurposeTemplate {
  /** Who may call: the one declaration the HTTP routes, OpenAPI and docs/permissions.md follow. */
  static readonly access = requiresUser('MISSING_USER_ID');

  constructor(
    private readonly templates: RepurposeTemplateRepository,
    private readonly languages: LanguageCatalog,
    private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, input: UpdateRepurposeTemplateInput): Promise<RepurposeTemplate> {
    const user = requireUser(caller, UpdateRepurposeTemplate.access.missing);
    requireTenantId(caller.tenantId);
    // Without a named tag (absent, or `*`: a template always has a representation) nothing is read.
    const expected = namesVersion(input.ifMatch) ? await this.#checked(caller.tenantId, input.ifMatch) : undefined;
    input.checkShape?.(input.changes);
    const changes = this.#changesOf(caller.tenantId, input.changes);
    const now = this.clock.now();
    if (expected) {
      // Past the version checked, so the answer's tag moves even within one millisecond.
      const audit = { updatedBy: user.id, updatedAt: nextUpdatedAt(expected.updatedAt, now) };
      const updated = await this.templates.applyChanges(caller.tenantId, changes, audit, expected);
      if (!updated) throw preconditionFailed();
      return updated;
    }
    const audit = { updatedBy: user.id, updatedAt: now };
    // The template usually exists (the first read provisions it): patch it in one step, and
    // provision it first only when the patch found nothing (decision 0750).
    const patched = await this.templates.applyChanges(caller.tenantId, changes, audit);
    if (patched) return patched;
    await this.templates.findOrCreate(defaultRepurposeTemplate(caller.tenantId, now));
    const updated = await this.templates.applyChanges(caller.tenantId, changes, audit);
    if (!updated) throw new Error(`repurpose template of ${caller.tenantId} vanished during update`);
    return updated;
  }

  /**
   * The stored template once `If-Match` holds for it. None yet: no tag can match, since its first
   * read creates it with dates of its own.
   */
  async #checked(tenantId: string, ifMatch: string): Promise<RepurposeTemplate> {
    const current = await this.templates.find(tenantId);
    if (!current) throw preconditionFailed();
    checkIfMatch(ifMatch, () => current);
    return current;
  }

  #changesOf(tenantId: string, patch: RepurposeTemplatePatch): TemplateChange[] {
    requireKnownKeys(patch, '', PATCH_KEYS);
    const changes: TemplateChange[] = [];
    const defaultRules: Record<string, Rule> = {
      language: enumRule(this.languages.languagesOf(tenantId)),
      tone: PLATFORM_RULES.tone!,
      length: PLATFORM_RULES.length!,
    };
    const collect = (group: unknown, rules: Record<string, Rule>, path: [string, ...string[]]) => {
      if (isAbsent(group)) return;
      if (!isJsonObject(group)) requireObject(group, path.join('.')); // the path is written only for a group refused
      for (const [key, value] of Object.entries(group)) {
        if (value === undefined || value === null) continue;
        const rule = Object.hasOwn(rules, key) ? rules[key] : undefined; // not `toString` & co.
        const problem = rule ? rule(value) : 'is not allowed';
        if (problem !== undefined) throw validationError([...path, key].join('.'), problem);
        changes.push({ path: [...path, key], value: value as string | number });
      }
    };
    collect(patch.defaults, defaultRules, ['defaults']);
    if (!isAbsent(patch.platforms)) requireObject(patch.platforms, 'platforms');
    for (const [platform, values] of Object.entries(patch.platforms ?? {})) {
      if (!(PLATFORMS as readonly string[]).includes(platform)) throw validationError(`platforms.${platform}`, 'is not allowed');
      collect(values, PLATFORM_RULES, ['platforms', platform]);
    }
    return changes;
  }
}
