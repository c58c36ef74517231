/**
 * A product's kind for the deals engine from its top category's url key (issue 28): the menu's names
 * (`pre-rolls`, `vapes`, `gear`, …) and the kinds themselves. Read from the rows by deals/facts.ts and
 * from the catalogue documents by deals/page-deals.ts (browser-safe: it imports no zod, so the offline
 * worker's bundle stays without it).
 */
import type { DealProductKind } from '@verdant/domain';

/** Top category url keys of a menu → the deal model's product kinds. */
const KIND_BY_TOP_CATEGORY: Readonly<Record<string, DealProductKind>> = {
  flower: 'flower',
  'pre-rolls': 'preroll',
  prerolls: 'preroll',
  preroll: 'preroll',
  vapes: 'vape',
  vape: 'vape',
  vaporizers: 'vape',
  concentrates: 'concentrate',
  concentrate: 'concentrate',
  edibles: 'edible',
  edible: 'edible',
  tinctures: 'tincture',
  tincture: 'tincture',
  topicals: 'topical',
  topical: 'topical',
  accessories: 'accessory',
  accessory: 'accessory',
  gear: 'accessory',
};

export function kindOfTopCategory(urlKey: string | null | undefined): DealProductKind | null {
  if (!urlKey) return null;
  return KIND_BY_TOP_CATEGORY[urlKey.toLowerCase()] ?? null;
}
