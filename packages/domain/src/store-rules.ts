import { LICENSE_TYPES, type LicenseType } from './license.ts';
import type { Store } from './store.ts';

/**
 * Rules over a store's settings. Kept apart from store.ts, whose zod schemas run when the module
 * loads: browser code that only needs these functions then never pulls zod into its bundle.
 */
export function storeOffers(store: Pick<Store, 'dispensarySettings'>, licenseType: LicenseType): boolean {
  return licenseType === 'recreational'
    ? store.dispensarySettings.license_recreational
    : store.dispensarySettings.license_medical;
}

export function offeredLicenseTypes(store: Pick<Store, 'dispensarySettings'>): LicenseType[] {
  return LICENSE_TYPES.filter((lt) => storeOffers(store, lt));
}

/** The licence type a guest gets when none was chosen, or the chosen one is not offered here. */
export function effectiveLicenseType(store: Pick<Store, 'dispensarySettings'>, chosen: unknown): LicenseType {
  const offered = offeredLicenseTypes(store);
  return offered.find((lt) => lt === chosen) ?? offered[0];
}

/** Grams per transaction for a licence type, or null when the store sets no limit for it. */
export function usableMaxGrams(store: Pick<Store, 'dispensarySettings'>, licenseType: LicenseType): number | null {
  return store.dispensarySettings.compliance_settings?.limits[licenseType]?.per_transaction.usable_max ?? null;
}
