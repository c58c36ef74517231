/**
 * How a store shows deals (issue 28 "Display rules per store"): the preset of its state and licence —
 * Massachusetts adult-use menus show no "sale", no percent or amount off and no struck-through price;
 * California never says "free" (nor does any store by default). Presets and their sources:
 * packages/domain/src/deals/words.ts. The numbers never depend on it: the server applies the same deals.
 */
import { dealDisplayPresetFor, dealDisplayTitle, reasonText, nudgeText, type DealDisplayPreset, type DealDisplaySettings, type LicenseType, type Store } from '@verdant/domain';
import type { StoreDealsOutcome } from './apply.ts';

/** The preset of the store's setting `deal-display` (display-section.ts; `auto`: by its state) for a licence. */
export function dealDisplayPresetOf(store: Store, licence: LicenseType, setting?: DealDisplaySettings | null): DealDisplayPreset {
  return dealDisplayPresetFor(setting, store.dispensarySettings.place_info.address.region_code, licence);
}

/** Each deal's words under the rules: the manager's title when it passes them, else generated words; null: the price only. */
export function dealWordsOf(outcome: StoreDealsOutcome, preset: DealDisplayPreset): Map<string, string | null> {
  const words = new Map<string, string | null>();
  for (const d of outcome.applied) words.set(d.deal.code, dealDisplayTitle(d.deal.record, preset.rules));
  return words;
}

/** The cart's deal summary (totals answer `deals`): applied, not applied with the reason, nudges. */
export function dealsSummary(outcome: StoreDealsOutcome, preset: DealDisplayPreset) {
  const records = outcome.byCode;
  const words = dealWordsOf(outcome, preset);
  return {
    display: preset.id,
    applied: outcome.applied.map((a) => ({ id: a.deal.code, title: words.get(a.deal.code) ?? null, discount: a.discount })),
    not_applied: outcome.result.notApplied.flatMap((n) => {
      const deal = records.get(n.dealId);
      // `related`: some line of the cart takes part in it (the cart says why such a deal was missed, issue 28).
      return deal
        ? [{ id: n.dealId, title: dealDisplayTitle(deal.record, preset.rules), reason: n.reason, text: reasonText(deal.record, n.reason, n.missing, preset.rules), related: outcome.related.has(n.dealId) }]
        : [];
    }),
    nudges: outcome.result.nudges.flatMap((n) => {
      const deal = records.get(n.dealId);
      const text = deal ? nudgeText(deal.record, n.missing, preset.rules) : null;
      return text ? [{ id: n.dealId, text }] : [];
    }),
  };
}
