import type { LicenseType } from './license.ts';

/**
 * The medical-card rule: an order or cart line for a medical-only product needs a logged-in
 * customer with a medical card number (at least 2 characters) and an expiry date on or after
 * today in the store's time zone (spec §3 medcard fields, §5 "MedCard number at least 2 letters").
 * Recreational orders and products sold to both licence types are unaffected. The server enforces
 * it at cart update and order save; the browser can tell the shopper before asking.
 */
export const MEDCARD_MESSAGES = {
  loginRequired: 'Medical products are only available to logged-in customers with a medical card. Please log in.',
  cardMissing: 'Medical products need a medical card number and expiry date on your account.',
  cardExpired: 'Your medical card has expired. Please update it before ordering medical products.',
} as const;

export interface MedicalCardHolder {
  medcardNumber?: string | null;
  /** YYYY-MM-DD (a longer ISO string is cut to its date). */
  medcardExpiry?: string | null;
  /** The store's time zone, where "today" is judged. */
  timeZone?: string | null;
}

/** The message that refuses this cart or order, or null when it may go ahead. */
export function medicalCardProblem(
  customer: MedicalCardHolder | null,
  licenseType: LicenseType,
  now: Date,
  /** The lines at stake: only medical-only products need the card ('both' products do not). */
  lines?: readonly { licenseTypes: readonly string[] }[],
): string | null {
  if (licenseType !== 'medical') return null;
  if (lines && !lines.some((l) => l.licenseTypes.length > 0 && l.licenseTypes.every((t) => t === 'medical'))) return null;
  if (!customer) return MEDCARD_MESSAGES.loginRequired;
  if (!customer.medcardNumber || customer.medcardNumber.trim().length < 2 || !customer.medcardExpiry) return MEDCARD_MESSAGES.cardMissing;
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: customer.timeZone ?? 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  // YYYY-MM-DD strings compare as dates.
  return customer.medcardExpiry.slice(0, 10) < today ? MEDCARD_MESSAGES.cardExpired : null;
}
