import type { TaxLineInput, TaxProductKind, TaxSettings } from './lines.ts';
import { taxSettingsSchema } from './schema.ts';

/**
 * Ready-made tax lines (research/dispensary-domain.md §3, with its sources). A store copies one and
 * edits it in the console; rates change (California's excise was 19 % from 2025-07-01 to
 * 2025-09-30, AB 564 put it back to 15 % from 2025-10-01), so a preset is a starting point, not law.
 */

/** The demo catalogue's product tax classes (seed/data/merch.ts): cannabis goods and everything else. */
export const DEMO_TAX_CLASS_CANNABIS = 2;
export const DEMO_TAX_CLASS_GENERAL = 4;

export interface CaliforniaTaxOptions {
  city: string;
  /** Combined state and local sales tax in percent (Sacramento 8.75, Oakland 10.25; CA base 7.25). */
  salesPercent: number;
  exciseSlug?: string;
  cannabisTaxClassIds?: number[];
  allTaxClassIds?: number[];
  /**
   * Exempt medical shoppers with a state medical ID card from sales tax (default true). The demo
   * stores' defaults keep today's totals (no exemption) until a manager turns it on in the console.
   */
  medicalCardExempt?: boolean;
}

/**
 * California: 15 % cannabis excise on cannabis goods, separately stated (cdtfa.ca.gov, AB 195 /
 * AB 564), and sales tax on everything, charged on the price plus the excise; a medical patient
 * with a CDPH-issued medical ID card (MMIC) pays no sales tax (a physician's letter does not count).
 */
export function californiaTaxLines(o: CaliforniaTaxOptions): TaxSettings {
  const cannabis = o.cannabisTaxClassIds ?? [DEMO_TAX_CLASS_CANNABIS];
  const all = o.allTaxClassIds ?? [DEMO_TAX_CLASS_CANNABIS, DEMO_TAX_CLASS_GENERAL];
  const lines: TaxLineInput[] = [
    { code: 'ca-excise', title: 'CA cannabis excise', kind: 'excise', rate: 15, base: 'price', applies_to: { tax_class_ids: cannabis } },
    {
      code: 'sales',
      title: `${o.city} sales tax`,
      kind: 'sales',
      rate: o.salesPercent,
      base: 'price_plus_earlier',
      applies_to: { tax_class_ids: all },
      exempt: o.medicalCardExempt === false ? [] : ['medical_card'],
    },
  ];
  return taxSettingsSchema.parse({ lines });
}

/**
 * Illinois (410 ILCS 705/65-10): the cannabis purchaser excise is 10 % when adjusted THC is at most
 * 35 %, 25 % above 35 %, 20 % on cannabis-infused products, always on the full price (not
 * compounded); plus 6.25 % state retailers' occupation tax and local taxes (the local part is the
 * store's to add: `localSalesPercent`). Medical cannabis pays 1 % and no purchaser excise.
 */
/** Product kinds by the top category's url key of the demo catalogue and the menu import's usual categories. */
const KIND_BY_CATEGORY: Readonly<Record<string, TaxProductKind>> = {
  flower: 'flower',
  'pre-rolls': 'pre_roll',
  prerolls: 'pre_roll',
  vapes: 'vape',
  concentrates: 'concentrate',
  edibles: 'infused',
  tinctures: 'infused',
  beverages: 'infused',
  topicals: 'topical',
  accessories: 'non_cannabis',
  apparel: 'non_cannabis',
};

/**
 * The tax kind of a product: not cannabis by canna_type (4, 6), else by its top category's url key,
 * else null (a line that names kinds does not apply to it).
 */
export function taxKindOf(topCategoryUrlKey: string | null | undefined, cannabis: boolean): TaxProductKind | null {
  if (!cannabis) return 'non_cannabis';
  return (topCategoryUrlKey && KIND_BY_CATEGORY[topCategoryUrlKey.toLowerCase()]) || null;
}

export function illinoisTaxLines(localSalesPercent = 0): TaxSettings {
  const rec = ['medical'] as const;
  const lines: TaxLineInput[] = [
    {
      code: 'il-excise-10',
      title: 'IL cannabis excise (THC ≤ 35%)',
      kind: 'excise',
      rate: 10,
      applies_to: { kinds: ['flower', 'pre_roll', 'concentrate', 'vape'], thc_percent_at_most: 35 },
      exempt: [...rec],
    },
    {
      code: 'il-excise-25',
      title: 'IL cannabis excise (THC > 35%)',
      kind: 'excise',
      rate: 25,
      applies_to: { kinds: ['flower', 'pre_roll', 'concentrate', 'vape'], thc_percent_above: 35 },
      exempt: [...rec],
    },
    {
      code: 'il-excise-20',
      title: 'IL cannabis excise (infused)',
      kind: 'excise',
      rate: 20,
      applies_to: { kinds: ['infused', 'topical'] },
      exempt: [...rec],
    },
    { code: 'il-rot', title: 'IL retailers’ occupation tax', kind: 'sales', rate: 6.25, exempt: ['medical'] },
    {
      code: 'il-medical',
      title: 'IL medical cannabis tax',
      kind: 'sales',
      rate: 1,
      applies_to: { kinds: ['flower', 'pre_roll', 'concentrate', 'vape', 'infused', 'topical'] },
      exempt: ['recreational'],
    },
  ];
  if (localSalesPercent > 0) lines.push({ code: 'il-local', title: 'Local sales tax', kind: 'sales', rate: localSalesPercent });
  return taxSettingsSchema.parse({ lines });
}

/**
 * Colorado: 15 % retail marijuana sales tax plus 2.9 % state sales tax (the 15 % excise is on the
 * wholesale transfer, not at retail); medical pays the 2.9 % only. Both on the price (cumulative).
 */
export function coloradoTaxLines(): TaxSettings {
  return taxSettingsSchema.parse({
    lines: [
      {
        code: 'co-marijuana',
        title: 'CO retail marijuana sales tax',
        kind: 'sales',
        rate: 15,
        applies_to: { kinds: ['flower', 'pre_roll', 'concentrate', 'vape', 'infused', 'topical'] },
        exempt: ['medical'],
      },
      { code: 'co-sales', title: 'CO state sales tax', kind: 'sales', rate: 2.9 },
    ],
  });
}
