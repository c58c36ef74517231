/**
 * The store setting `deal-floor` (issue 28 "No line is ever below $0.01 (a store setting)"): the
 * lowest unit price a deal may leave. Several states forbid giving cannabis away and California
 * forbids advertising free goods, so the floor is at least one cent and a store may set it higher
 * (e.g. $1.00 for a "buy one get one for $1" market). The engine applies it to every unit it
 * discounts (engine.ts `floorOf`); a deal that would go lower gives less. The optional floor at the
 * item's cost (DealFloor.useCost) waits for the menu to carry a cost: no menu column holds one yet.
 *
 * Its zod schema is in schema.ts: this module is in the offline catalogue's bundle (the estimate), and
 * zod stays on the server and in the console (apps/server/src/console/bundles.test.ts).
 */
import type { DealFloor } from './model.ts';

export interface DealFloorSettings {
  /** Cents, 1 ($0.01) to 100,000 ($1,000.00). */
  minUnitCents: number;
}

export const DEFAULT_DEAL_FLOOR_SETTINGS: DealFloorSettings = { minUnitCents: 1 };

/** The engine's floor for a store's setting (absent or unreadable: one cent). */
export function dealFloorOf(settings: Partial<DealFloorSettings> | null | undefined): DealFloor {
  const cents = settings?.minUnitCents;
  return { minUnitCents: Number.isInteger(cents) && cents! >= 1 ? cents! : 1 };
}
