/**
 * The console's settings sections (apps/server/src/store-settings/routes.ts, under
 * /stores/:storeId/settings/sections/:section) and the limits in force
 * (apps/server/src/limits/routes.ts). A section's value has its own schema in the domain
 * (hours, zones, tax, limits, age); these are the envelopes around it.
 */
import { z } from 'zod';
import type { LimitPresetId } from '../limits/index.ts';
import { dbId } from './fields.ts';

export type SettingsSource = 'saved' | 'stores-file' | 'default';

/** A section's value as read or saved. */
export interface SectionValue<T> {
  value: T;
  /** 0 until the first save in the console. */
  version: number;
  source: SettingsSource;
  updatedAt: string | null;
}

/** GET /settings/sections/:section and PUT /settings/sections/:section (and a 409 `stale_settings`'s meta.current, without section and title). */
export interface SectionAnswer<T> extends SectionValue<T> {
  section: string;
  title: string;
}

export const sectionParams = z.object({ storeId: dbId(), section: z.string().max(40) });

/** PUT …/sections/:section: the new value (checked by the section's own schema) over the version read. */
export const sectionSaveBody = z.object({ value: z.unknown(), version: z.number().int().nonnegative() }).strict();
export type SectionSaveRequest = z.input<typeof sectionSaveBody>;

/** GET /settings/sections/:section/history?before=&limit=. */
export const sectionHistoryQuery = z.object({
  before: dbId().optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

/** One save of a section, newest first. */
export interface SettingsHistoryEntry {
  id: number;
  at: string;
  actor: { type: 'staff' | 'cli'; id: number | null; name: string };
  before: unknown;
  after: unknown;
}

/** A product whose limit facts the menu leaves out, counted by a derivation from its kind. */
export interface DerivedProduct {
  id: number;
  sku: string;
  name: string;
  /** flower, preroll, concentrate, infused, or null (canna_type unknown). */
  kind: string | null;
  /** How each derived figure came about ("concentrate 1 g: its net weight"). */
  derived: string[];
}

/** GET /stores/:storeId/limits/in-force (issue 26). */
export interface LimitsInForce {
  /** `per_order`: the spec's per-order limit; `preset`: a state preset as given; `own`: the store's own model. */
  model: 'per_order' | 'preset' | 'own';
  preset: LimitPresetId | null;
  /** The state of the store's address, and its preset if the product has one. */
  state: string;
  state_preset: LimitPresetId | null;
  source: SettingsSource;
  /** Why this model is in force, in words. */
  reason: string;
  /** `spec`: products count as spec §5 says (per-order model); `menu`: the menu's facts and the product's kind. */
  counting: 'spec' | 'menu';
  /** Under `menu` counting: the store's products that count by a derivation from their kind (none under `spec`). */
  derived_products: DerivedProduct[];
}
