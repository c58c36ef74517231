import {
  AGE_THRESHOLD,
  defaultDeliveryZones,
  offeredLicenseTypes,
  publicDelivery,
  usableMaxGrams,
  dealDisplayPresetFor,
  type DealDisplayRules,
  type DealDisplaySettings,
  type HoursSettings,
  type LicenseType,
  type PublicDelivery,
  type Store,
} from '@verdant/domain';
import { hoursOrDefault } from './store-hours.ts';

/**
 * The part of a store the browser gets (root loader data): what every page shows. Tax and search
 * settings stay on the server; of the compliance settings only the per-transaction purchase
 * limits come along (public law, shown in the cart and checked there before the server checks
 * again, spec §5).
 */
export interface PublicStore {
  storeCode: string;
  storeId: number;
  name: string;
  url: string;
  logo: string;
  themeColor: string;
  seo: { defaultTitle: string; description: string };
  licenseTypes: LicenseType[];
  specials: Store['dispensarySettings']['specials'];
  placeInfo: Omit<Store['dispensarySettings']['place_info'], 'delivery_radius_miles'> & {
    deliveryRadiusMiles: number;
  };
  money: { currencyCode: string; locale: string };
  /**
   * THC-equivalent grams per transaction, by licence type (spec §3 compliance_settings usable_max),
   * for the browser's instant per-order check. Empty where the store's limit model is not the spec's
   * per-order limit (issue 26: a per-day preset is judged by the server's buckets alone, so the
   * browser never says "single order" under a per-day limit).
   */
  purchaseLimits: Partial<Record<LicenseType, number>>;
  /**
   * The store's hours settings (issue 14: weekly hours per order type, exceptions to come), for the
   * footer, contact page and locator (lib/store-hours.ts); the default from place_info.hours when
   * the server gave none.
   */
  hours: HoursSettings;
  /** Issue 14: the delivery zones without their shapes (checkout's option and area, contact page); no zones: pickup only. */
  delivery: PublicDelivery;
  /** Issue 14: the youngest a medical customer may be here (setting `age`; recreational is always 21). */
  medicalMinimumAge: number;
  /**
   * Issue 28: how deals and prices are shown, per licence (setting `deal-display`; `auto` by the
   * store's state): Massachusetts adult use shows no "sale", no percent and no struck-through price.
   */
  dealDisplay: Record<LicenseType, { preset: string; rules: DealDisplayRules }>;
  /** Issue 30: the menu's note that prices exclude taxes, with how much, from the store's tax lines (server store-settings/storefront.ts); null: none. */
  taxNote: string | null;
  /** Issue 30: whether the store shows product reviews (setting `reviews`): stars on cards, Top rated, the rating filter. */
  reviews: boolean;
  /** Issue 31: what happens to an uploaded ID or medical card image (setting `data-retention`); null: not known. */
  documentImagesNote: { id: string; medcard: string } | null;
  /** Issue 31: years the store keeps its sales records (setting `data-retention`); null: not known (the default 7). */
  salesRecordYears: number | null;
}

/**
 * `hours`: the store's hours settings as the server read them (AppContext.storeHours); `options`:
 * its zones and medical minimum age (AppContext.storeOptions). Absent: the defaults (the radius at
 * the spec's fee, 21).
 */
export function toPublicStore(
  store: Store,
  hours?: HoursSettings | null,
  options?: { delivery: PublicDelivery; medicalMinimumAge: number; perOrderLimit?: boolean; dealDisplay?: DealDisplaySettings; taxNote?: string | null; reviews?: boolean; documentImagesNote?: { id: string; medcard: string }; salesRecordYears?: number } | null,
): PublicStore {
  const { delivery_radius_miles, ...place } = store.dispensarySettings.place_info;
  return {
    storeCode: store.storeCode,
    storeId: store.storeId,
    name: store.name,
    url: store.url,
    logo: store.logo,
    themeColor: store.themeColor,
    seo: { defaultTitle: store.seo.defaultTitle, description: store.seo.description },
    licenseTypes: offeredLicenseTypes(store),
    specials: store.dispensarySettings.specials,
    placeInfo: { ...place, deliveryRadiusMiles: delivery_radius_miles },
    money: { currencyCode: store.i18n.currencyCode, locale: store.i18n.defaultLocale },
    purchaseLimits: Object.fromEntries(
      offeredLicenseTypes(store).flatMap((t) => {
        if (options?.perOrderLimit === false) return [];
        const max = usableMaxGrams(store, t);
        return max == null ? [] : [[t, max]];
      }),
    ),
    hours: hoursOrDefault(hours, place.hours),
    delivery: options?.delivery ?? publicDelivery(defaultDeliveryZones(delivery_radius_miles)),
    medicalMinimumAge: options?.medicalMinimumAge ?? AGE_THRESHOLD,
    dealDisplay: Object.fromEntries(
      (['recreational', 'medical'] as const).map((licence) => {
        const preset = dealDisplayPresetFor(options?.dealDisplay, place.address.region_code, licence);
        return [licence, { preset: preset.id, rules: preset.rules }];
      }),
    ) as PublicStore['dealDisplay'],
    taxNote: options?.taxNote ?? null,
    reviews: options?.reviews ?? true,
    documentImagesNote: options?.documentImagesNote ?? null,
    salesRecordYears: options?.salesRecordYears ?? null,
  };
}

/** `120 Market Street, Sacramento, CA 95814` */
export function formatAddress(place: PublicStore['placeInfo']): string {
  const a = place.address;
  return `${a.street}, ${a.city}, ${a.region_code} ${a.postcode}`;
}

/** `tel:+19165550120` for a US phone number as written in the stores file. */
export function telHref(phone: string): string {
  const digits = phone.replace(/[^\d+]/g, '');
  if (digits.startsWith('+')) return `tel:${digits}`;
  return digits.length === 10 ? `tel:+1${digits}` : `tel:${digits}`;
}
