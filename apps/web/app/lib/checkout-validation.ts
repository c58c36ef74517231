/**
 * Checkout field rules (spec §5 Forms and messages). The spec gives the words, not the patterns;
 * the patterns are the server's (apps/server/src/orders/schema.ts) so that what passes here passes
 * there, and the wording is the server's where it has one. Missing in packages/domain: these
 * rules belong there once, shared by this form and the order schema.
 */
import { MESSAGES } from '@verdant/domain';
import { CART_MESSAGES } from './cart-messages.ts';
import type { PersonalDetails, ShippingDetails } from '../state/checkout-store.ts';

export const FIELD_MESSAGES = {
  required: MESSAGES.fieldRequired,
  onlyLetters: 'Accepts only alphabet characters',
  nameTooShort: 'Name must have at least 2 letters',
  email: 'Please provide valid e-mail address.',
  phone: 'Please provide valid phone number',
  zipTooShort: 'Zip-code must have at least 3 letters',
  zip: 'Please provide valid zip code',
  city: 'Please provide valid city name',
  points: CART_MESSAGES.pointsDecimals,
} as const;

/** zod's email pattern (the server validates with zod's `.email()`). */
const EMAIL = /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const PHONE = /^\+?[0-9 ().-]{7,24}$/;
/** Letters of any alphabet, with the spaces, hyphens, apostrophes and dots names carry. */
const NAME = /^[\p{L}][\p{L}\p{M} .'’-]*$/u;
const US_ZIP = /^\d{5}(-\d{4})?$/;

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

function name(value: string, minLetters: number): string | undefined {
  const v = value.trim();
  if (!v) return FIELD_MESSAGES.required;
  if (!NAME.test(v)) return FIELD_MESSAGES.onlyLetters;
  if ((v.match(/\p{L}/gu) ?? []).length < minLetters) return FIELD_MESSAGES.nameTooShort;
  return undefined;
}

export function validatePersonal(p: PersonalDetails): FieldErrors<'firstName' | 'lastName' | 'emailAddress' | 'phone'> {
  const errors: FieldErrors<'firstName' | 'lastName' | 'emailAddress' | 'phone'> = {};
  const first = name(p.firstName, 1);
  const last = name(p.lastName, 2);
  if (first) errors.firstName = first;
  if (last) errors.lastName = last;
  const email = p.emailAddress.trim();
  if (!email) errors.emailAddress = FIELD_MESSAGES.required;
  else if (email.length > 254 || !EMAIL.test(email)) errors.emailAddress = FIELD_MESSAGES.email;
  const phone = p.phone.trim();
  const digits = phone.replace(/\D/g, '').length;
  if (!phone) errors.phone = FIELD_MESSAGES.required;
  else if (!PHONE.test(phone) || digits < 7 || digits > 15) errors.phone = FIELD_MESSAGES.phone;
  return errors;
}

export function validateAddress(s: ShippingDetails): FieldErrors<'address' | 'city' | 'zip'> {
  const errors: FieldErrors<'address' | 'city' | 'zip'> = {};
  if (s.method !== 'delivery') return errors;
  if (!s.address.trim()) errors.address = FIELD_MESSAGES.required;
  const city = s.city.trim();
  if (!city) errors.city = FIELD_MESSAGES.required;
  else if (!NAME.test(city)) errors.city = FIELD_MESSAGES.city;
  const zip = s.zip.trim();
  if (!zip) errors.zip = FIELD_MESSAGES.required;
  else if (zip.length < 3) errors.zip = FIELD_MESSAGES.zipTooShort;
  else if (!US_ZIP.test(zip)) errors.zip = FIELD_MESSAGES.zip;
  return errors;
}

/** Spec §5: whole points only. Empty means none. */
export function validatePoints(value: string): string | undefined {
  const v = value.trim();
  if (!v) return undefined;
  return /^\d+$/.test(v) ? undefined : FIELD_MESSAGES.points;
}
