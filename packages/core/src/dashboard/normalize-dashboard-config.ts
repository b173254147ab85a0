/**
 * The dashboard normalizer: turns any client body into the one canonical configuration.
 * Wrong JSON types are validation errors; unknown enum values fall back to the positional
 * default; unknown properties are dropped because the result is built field by field.
 */
import { validationError } from '../shared/domain-error.js';
import { exceedsCharacters, isAbsent, isJsonObject } from '../shared/shape-rules.js';
import {
  DEFAULT_RANGE,
  DEFAULT_TEMPLATE_ID,
  DEFAULT_VERSION,
  MAX_SLOTS,
  SLOT_RANGES,
  SLOT_SPANS,
  SLOT_TYPES,
  defaultSlotIdAt,
  defaultSlots,
  defaultSpanAt,
  defaultTypeAt,
  type DashboardConfig,
  type DashboardSlot,
} from './dashboard-config.js';

function oneOf<T extends string>(allowed: readonly T[], value: unknown, fallback: T): T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

function boundedString(value: unknown, path: string, max: number): string {
  if (typeof value !== 'string' || value.length < 1 || exceedsCharacters(value, max)) {
    throw validationError(path, `must be a string of 1 to ${max} characters`);
  }
  return value;
}

function normalizeSlot(raw: unknown, index: number): DashboardSlot {
  const path = `slots[${index}]`;
  if (!isJsonObject(raw)) throw validationError(path, 'must be an object');
  const id = isAbsent(raw.id) ? defaultSlotIdAt(index) : boundedString(raw.id, `${path}.id`, 64);
  if (!isAbsent(raw.enabled) && typeof raw.enabled !== 'boolean') {
    throw validationError(`${path}.enabled`, 'must be a boolean');
  }
  if (!isAbsent(raw.settings) && !isJsonObject(raw.settings)) {
    throw validationError(`${path}.settings`, 'must be an object');
  }
  return {
    id,
    type: oneOf(SLOT_TYPES, raw.type, defaultTypeAt(index)),
    enabled: raw.enabled ?? true,
    span: oneOf(SLOT_SPANS, raw.span, defaultSpanAt(index)),
    settings: { range: oneOf(SLOT_RANGES, raw.settings?.range, DEFAULT_RANGE) },
  };
}

function normalizeSlots(raw: unknown): DashboardSlot[] {
  if (isAbsent(raw)) return defaultSlots();
  if (!Array.isArray(raw)) throw validationError('slots', 'must be an array');
  if (raw.length === 0) return defaultSlots();
  if (raw.length > MAX_SLOTS) throw validationError('slots', `must have at most ${MAX_SLOTS} items`);
  // Every position: a hole (`[ , ]`, which embedding code can build and JSON cannot) is refused as
  // an absent slot would be, where `map` would skip it and store the hole.
  const slots: DashboardSlot[] = [];
  for (let index = 0; index < raw.length; index += 1) slots.push(normalizeSlot(raw[index], index));
  const seen = new Set<string>();
  slots.forEach((slot, index) => {
    if (seen.has(slot.id)) throw validationError(`slots[${index}].id`, `duplicates the slot id "${slot.id}"`);
    seen.add(slot.id);
  });
  return slots;
}

/** Normalizes a request body (absent, `null` or an object) into a full configuration. */
export function normalizeDashboardConfig(body: unknown): DashboardConfig {
  if (isAbsent(body)) return normalizeDashboardConfig({});
  if (!isJsonObject(body)) throw validationError('', 'must be an object');
  const { version, templateId } = body;
  if (!isAbsent(version) && (typeof version !== 'number' || !Number.isFinite(version) || version < 1)) {
    throw validationError('version', 'must be a finite number of at least 1');
  }
  return {
    version: version ?? DEFAULT_VERSION,
    templateId: isAbsent(templateId) ? DEFAULT_TEMPLATE_ID : boundedString(templateId, 'templateId', 64),
    slots: normalizeSlots(body.slots),
  };
}
