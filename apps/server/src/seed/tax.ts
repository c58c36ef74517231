/**
 * Tax rules per store and the demo coupons. California retailers collect a 15 % cannabis excise on
 * cannabis goods (separately stated) and local sales tax on everything, charged on top of the
 * excise (research/dispensary-domain.md §3); hence the excise rule has the lower priority number.
 */
import type { Store } from '@verdant/domain';
import type { NewRow, Row } from '../db/schema.ts';
import { CUSTOMER_TAX_CLASS_RETAIL, TAX_CLASS_CANNABIS, TAX_CLASS_GENERAL } from './data/merch.ts';

export const CANNABIS_EXCISE_PERCENT = 15;
/** Combined state and local sales tax by city; CA's statewide base rate elsewhere. */
export const SALES_TAX_BY_CITY: Readonly<Record<string, number>> = { Sacramento: 8.75, Oakland: 10.25 };
export const CA_BASE_SALES_TAX = 7.25;
/** California's region id in the platform's region table. */
const CA_REGION_ID = 12;

export function salesTaxPercent(store: Store): number {
  return SALES_TAX_BY_CITY[store.dispensarySettings.place_info.address.city] ?? CA_BASE_SALES_TAX;
}

export function taxRows(store: Store): { rules: Row<'tax_rules'>[]; rates: Row<'tax_rates'>[] } {
  const base = store.storeId * 100;
  const address = store.dispensarySettings.place_info.address;
  const region = store.tax.defaultRegion || address.region_code;
  const country = store.tax.defaultCountry || address.country_id;
  const customers = JSON.stringify([CUSTOMER_TAX_CLASS_RETAIL]);
  const rules: Row<'tax_rules'>[] = [
    {
      id: base + 1,
      store_id: store.storeId,
      code: 'CA cannabis excise',
      priority: 0,
      position: 0,
      product_tax_class_ids: JSON.stringify([TAX_CLASS_CANNABIS]),
      customer_tax_class_ids: customers,
    },
    {
      id: base + 2,
      store_id: store.storeId,
      code: `${address.city} sales tax`,
      priority: 1,
      position: 1,
      product_tax_class_ids: JSON.stringify([TAX_CLASS_CANNABIS, TAX_CLASS_GENERAL]),
      customer_tax_class_ids: customers,
    },
  ];
  const common = {
    store_id: store.storeId,
    tax_country_id: country,
    region_name: region,
    tax_region_id: CA_REGION_ID,
    tax_postcode: null,
  };
  const rates: Row<'tax_rates'>[] = [
    {
      id: base + 1,
      tax_rule_id: base + 1,
      code: `${country}-${region}-CANNABIS-EXCISE`,
      kind: 'excise',
      rate: CANNABIS_EXCISE_PERCENT,
      ...common,
    },
    {
      id: base + 2,
      tax_rule_id: base + 2,
      code: `${country}-${region}-${address.city.toUpperCase().replace(/\W+/g, '-')}-SALES`,
      kind: 'sales',
      rate: salesTaxPercent(store),
      ...common,
    },
  ];
  return { rules, rates };
}

/** WELCOME10 is the newsletter offer of spec §9 (10 % off); GREEN5 takes a fixed $5 off. */
export const NEWSLETTER_COUPON = 'WELCOME10';

export function couponRows(referenceIso: string): NewRow<'coupons'>[] {
  const common = {
    store_id: null,
    active: 1 as const,
    from_date: null,
    to_date: null,
    max_uses: null,
    created_at: referenceIso,
    updated_at: referenceIso,
  };
  return [
    {
      code: NEWSLETTER_COUPON,
      type: 'percent',
      discount_percent: 10,
      discount_cents: null,
      description: '10% off for newsletter subscribers',
      ...common,
    },
    {
      code: 'GREEN5',
      type: 'fixed',
      discount_percent: null,
      discount_cents: 500,
      description: '$5 off your order',
      ...common,
    },
  ];
}
