/**
 * Checkout field rules (spec §5 Forms and messages): the shared rules of @verdant/domain, which
 * the server's order schema enforces again, applied to this form's fields.
 */
import {
  FIELD_MESSAGES,
  cityRule,
  emailRule,
  firstNameRule,
  lastNameRule,
  phoneRule,
  pointsRule,
  requiredRule,
  zipRule,
} from '@verdant/domain';
import type { PersonalDetails, ShippingDetails } from '../state/checkout-store.ts';

export { FIELD_MESSAGES };

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

function collect<K extends string>(checks: [K, string | undefined][]): FieldErrors<K> {
  const errors: FieldErrors<K> = {};
  for (const [field, message] of checks) if (message) errors[field] = message;
  return errors;
}

export function validatePersonal(p: PersonalDetails): FieldErrors<'firstName' | 'lastName' | 'emailAddress' | 'phone'> {
  return collect([
    ['firstName', firstNameRule(p.firstName)],
    ['lastName', lastNameRule(p.lastName)],
    ['emailAddress', emailRule(p.emailAddress)],
    ['phone', phoneRule(p.phone)],
  ]);
}

export function validateAddress(s: ShippingDetails): FieldErrors<'address' | 'city' | 'zip'> {
  if (s.method !== 'delivery') return {};
  return collect([
    ['address', requiredRule(s.address)],
    ['city', cityRule(s.city)],
    ['zip', zipRule(s.zip)],
  ]);
}

/** Spec §5: whole points only. Empty means none. */
export const validatePoints = (value: string): string | undefined => pointsRule(value);
