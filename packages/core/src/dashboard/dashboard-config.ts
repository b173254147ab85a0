/** The per-user dashboard layout: its shape, allowed values and the built-in default. */
import { freezeInPlace, markSnapshot } from '../shared/frozen-snapshots.js';

export const SLOT_TYPES = [
  'operationsOverview',
  'tenantCapacity',
  'contentTrend',
  'summaryOverview',
  'topArticles',
  'reportIntelligence',
  'contentSpotlight',
] as const;
export const SLOT_SPANS = ['half', 'full'] as const;
export const SLOT_RANGES = ['1week', '2weeks', '1month', 'currentMonth'] as const;

export type SlotType = (typeof SLOT_TYPES)[number];
export type SlotSpan = (typeof SLOT_SPANS)[number];
export type SlotRange = (typeof SLOT_RANGES)[number];

export interface DashboardSlot {
  id: string;
  type: SlotType;
  enabled: boolean;
  span: SlotSpan;
  settings: { range: SlotRange };
}

export interface DashboardConfig {
  version: number;
  templateId: string;
  slots: DashboardSlot[];
}

/** One stored configuration per (tenant, user). */
export interface DashboardConfigRecord {
  tenantId: string;
  userId: string;
  config: DashboardConfig;
  updatedBy: string;
  updatedAt: Date;
}

export const DEFAULT_VERSION = 1;
export const DEFAULT_TEMPLATE_ID = 'executive_focus';
export const DEFAULT_RANGE: SlotRange = '2weeks';
export const MAX_SLOTS = 24;

/** Defaults depend on position: the first slot is the full-width overview. */
export function defaultTypeAt(index: number): SlotType {
  return index === 0 ? 'operationsOverview' : 'contentTrend';
}

export function defaultSpanAt(index: number): SlotSpan {
  return index === 0 ? 'full' : 'half';
}

/** `slot_<n>`, n the 1-based position. */
export function defaultSlotIdAt(index: number): string {
  return `slot_${index + 1}`;
}

export function defaultSlots(): DashboardSlot[] {
  return SLOT_TYPES.map((type, index) => ({
    id: defaultSlotIdAt(index),
    type,
    enabled: true,
    span: defaultSpanAt(index),
    settings: { range: DEFAULT_RANGE },
  }));
}

export function defaultDashboardConfig(): DashboardConfig {
  return { version: DEFAULT_VERSION, templateId: DEFAULT_TEMPLATE_ID, slots: defaultSlots() };
}

/**
 * The default layout as one deeply frozen value, answered to every user with nothing stored: the
 * HTTP adapter then works out its JSON text and entity tag once, not on every such read.
 */
export const SHARED_DEFAULT_CONFIG: DashboardConfig = markSnapshot(freezeInPlace(defaultDashboardConfig()));
