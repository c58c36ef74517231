import { MESSAGES } from './messages.ts';
import { CART_COPY } from './cart/messages.ts';

/**
 * Form field rules of spec §5, shared by the browser (instant feedback) and the server (which
 * enforces them again). The spec gives the words, not the patterns; the patterns are ours. Each
 * rule returns the message to show, or undefined when the value is fine.
 */
export const FIELD_MESSAGES = {
  required: MESSAGES.fieldRequired,
  onlyLetters: 'Accepts only alphabet characters',
  nameTooShort: 'Name must have at least 2 letters',
  email: 'Please provide valid e-mail address.',
  phone: 'Please provide valid phone number',
  zipTooShort: 'Zip-code must have at least 3 letters',
  zip: 'Please provide valid zip code',
  city: 'Please provide valid city name',
  points: CART_COPY.pointsDecimals,
} as const;

const EMAIL = /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const PHONE = /^\+?[0-9 ().-]{7,24}$/;
/** Letters of any alphabet, with the spaces, hyphens, apostrophes and dots names carry. */
const NAME = /^[\p{L}][\p{L}\p{M} .'’-]*$/u;
const US_ZIP = /^\d{5}(-\d{4})?$/;

export type FieldRule = (value: string) => string | undefined;

/** A person's name: letters only, at least `minLetters` of them. */
export function nameRule(minLetters: number): FieldRule {
  return (value) => {
    const v = value.trim();
    if (!v) return FIELD_MESSAGES.required;
    if (!NAME.test(v)) return FIELD_MESSAGES.onlyLetters;
    if ((v.match(/\p{L}/gu) ?? []).length < minLetters) return FIELD_MESSAGES.nameTooShort;
    return undefined;
  };
}

export const firstNameRule = nameRule(1);
export const lastNameRule = nameRule(2);

export const emailRule: FieldRule = (value) => {
  const v = value.trim();
  if (!v) return FIELD_MESSAGES.required;
  return v.length > 254 || !EMAIL.test(v) ? FIELD_MESSAGES.email : undefined;
};

export const phoneRule: FieldRule = (value) => {
  const v = value.trim();
  if (!v) return FIELD_MESSAGES.required;
  const digits = v.replace(/\D/g, '').length;
  return !PHONE.test(v) || digits < 7 || digits > 15 ? FIELD_MESSAGES.phone : undefined;
};

export const cityRule: FieldRule = (value) => {
  const v = value.trim();
  if (!v) return FIELD_MESSAGES.required;
  return NAME.test(v) ? undefined : FIELD_MESSAGES.city;
};

export const zipRule: FieldRule = (value) => {
  const v = value.trim();
  if (!v) return FIELD_MESSAGES.required;
  if (v.length < 3) return FIELD_MESSAGES.zipTooShort;
  return US_ZIP.test(v) ? undefined : FIELD_MESSAGES.zip;
};

export const requiredRule: FieldRule = (value) => (value.trim() ? undefined : FIELD_MESSAGES.required);

/** Spec §5: whole points only. Empty means none. */
export const pointsRule: FieldRule = (value) => {
  const v = value.trim();
  if (!v) return undefined;
  return /^\d+$/.test(v) ? undefined : FIELD_MESSAGES.points;
};
