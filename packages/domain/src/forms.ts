import { MESSAGES } from './messages.ts';
import { CART_COPY } from './cart/messages.ts';
import { MEDCARD_MESSAGES } from './medical-card.ts';

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
  passwordTooShort: 'Password must have at least 8 letters',
  passwordsDiffer: 'Passwords must be identical',
} as const;

/** Spec §5 / §9: password minimum 8 (characters, not bytes; any character counts). */
export const PASSWORD_MIN_LENGTH = 8;
/** Upper bound so a megabyte "password" cannot tie up the key-derivation function. */
export const PASSWORD_MAX_LENGTH = 256;

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

/**
 * Spec §5 "Name must have at least 2 letters": every person's name (first and last, on every form
 * and endpoint). The spec's other minimum, 3 letters, is an address's own name (addressNameRule).
 */
export const firstNameRule = nameRule(2);
export const lastNameRule = nameRule(2);

/**
 * A name that may be left empty (an address's recipient, a name an account has not given yet):
 * empty is fine, anything given follows the person's-name rule.
 */
export const optionalNameRule: FieldRule = (value) => (value.trim() ? firstNameRule(value) : undefined);

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

/** A new password: at least 8 characters (code points), never trimmed; spaces count. */
export const passwordRule: FieldRule = (value) => {
  if (!value) return FIELD_MESSAGES.required;
  const length = [...value].length;
  if (length < PASSWORD_MIN_LENGTH) return FIELD_MESSAGES.passwordTooShort;
  return length > PASSWORD_MAX_LENGTH ? `Password can have at most ${PASSWORD_MAX_LENGTH} characters` : undefined;
};

/** The confirmation field of a new password. */
export function passwordsIdentical(password: string, confirmation: string): string | undefined {
  return password === confirmation ? undefined : FIELD_MESSAGES.passwordsDiffer;
}

export const requiredRule: FieldRule = (value) => (value.trim() ? undefined : FIELD_MESSAGES.required);

/** Spec §5: whole points only. Empty means none. */
export const pointsRule: FieldRule = (value) => {
  const v = value.trim();
  if (!v) return undefined;
  return /^\d+$/.test(v) ? undefined : FIELD_MESSAGES.points;
};

// ---- the rest of spec §5 "Forms and messages": account, registration and quantity forms ----

/** The remaining words of spec §5, as the account and registration forms show them. */
export const FORM_MESSAGES = {
  greaterThanZero: 'Must be greater than 0',
  qtyAboveZero: 'Quantity must be above 0',
  qtyBelow: (quantity: number) => `Quantity must be below ${quantity}`,
  qtyPositiveInteger: CART_COPY.qtyPositiveInteger,
  qtyPositiveNumber: 'Quantity must be a positive number',
  qtyAboveMaximum: 'Quantity cannot be greater than a maximum',
  onlyAvailable: CART_COPY.onlyAvailable,
  nameTooShort3: 'Name must have at least 3 letters',
  medcardTooShort: 'MedCard number must have at least 2 letters',
  taxIdTooShort: 'Tax ID must have at least 3 letters',
  taxIdentificationTooShort: 'Tax identification number must have at least 3 letters',
  specialCharacters: 'Special Characters are not allowed',
  date: 'Please enter a valid date',
  birthday: 'Please enter your birthday',
  searchTermTooShort: MESSAGES.searchTermTooShort,
  uploadId: 'Please upload your ID',
  uploadMedcard: 'Please upload your MedCard',
  smsCode: 'Please enter the SMS code you received.',
  acceptTerms: 'You must accept the terms and conditions',
  mustCertify: MESSAGES.ageGateMustCertify,
  under21: MESSAGES.ageGateRefused,
  /** Upload checks before sending (the server sniffs the bytes again, with the same words). */
  documentType: 'Only JPEG, PNG or PDF files can be uploaded.',
  documentTooLarge: 'The file is larger than 10 MB.',
} as const;

/** Spec §5 "Name must have at least 2 letters" / "at least 3 letters": the message of a minimum. */
export function nameTooShortMessage(minLetters: number): string {
  return minLetters >= 3 ? FORM_MESSAGES.nameTooShort3 : FIELD_MESSAGES.nameTooShort;
}

/** A name of at least 3 letters (an address's own name, e.g. "Home"). Empty is allowed: the field is optional. */
export const addressNameRule: FieldRule = (value) => {
  const v = value.trim();
  if (!v) return undefined;
  if (!NAME.test(v)) return FIELD_MESSAGES.onlyLetters;
  return (v.match(/\p{L}/gu) ?? []).length < 3 ? nameTooShortMessage(3) : undefined;
};

/** Letters, digits, spaces and the punctuation addresses carry (. , ' - / #); anything else is "special". */
const PLAIN_TEXT = /^[\p{L}\p{M}\p{N} .,'’\-/#]*$/u;

/** A free-text line of an address (street, house number, apartment). */
export const plainTextRule: FieldRule = (value) => (PLAIN_TEXT.test(value.trim()) ? undefined : FORM_MESSAGES.specialCharacters);

/** A required street line: not empty, no special characters. */
export const streetRule: FieldRule = (value) => requiredRule(value) ?? plainTextRule(value);

/** Spec §5 "MedCard number at least 2 letters" (characters: card numbers are often digits). */
export const medcardNumberRule: FieldRule = (value) => {
  const v = value.trim();
  if (!v) return FIELD_MESSAGES.required;
  return v.length < 2 ? FORM_MESSAGES.medcardTooShort : undefined;
};

/** Spec §5 "Tax ID at least 3 letters" (empty allowed: the field is optional). */
export const taxIdRule: FieldRule = (value) => {
  const v = value.trim();
  return v && v.length < 3 ? FORM_MESSAGES.taxIdTooShort : undefined;
};

/** Spec §5 "Tax identification number at least 3 letters" (empty allowed). */
export const taxIdentificationRule: FieldRule = (value) => {
  const v = value.trim();
  return v && v.length < 3 ? FORM_MESSAGES.taxIdentificationTooShort : undefined;
};

/** A real calendar date written YYYY-MM-DD (what `<input type="date">` gives); 2026-02-30 is not one. */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(value);
}

export const dateRule: FieldRule = (value) => {
  const v = value.trim();
  if (!v) return FIELD_MESSAGES.required;
  return isCalendarDate(v) ? undefined : FORM_MESSAGES.date;
};

/** Today's date (YYYY-MM-DD) in a time zone. */
export function todayInZone(now: Date, timeZone = 'UTC'): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** A birthday further back than this many years is not a living customer's (spec §5 "valid date"). */
export const BIRTHDAY_MAX_AGE_YEARS = 120;

/** The date `years` calendar years before `today` (YYYY-MM-DD); Feb 29 falls back to Feb 28. */
function yearsBefore(today: string, years: number): string {
  const [y, m, d] = today.split('-').map(Number);
  const year = String(y - years).padStart(4, '0');
  const day = m === 2 && d === 29 && !isCalendarDate(`${year}-02-29`) ? 28 : d;
  return `${year}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Whole years from a birthday to a calendar date (both YYYY-MM-DD); a Feb 29 birthday turns a year older on Mar 1 in common years. */
export function ageOnDate(birthday: string, date: string): number {
  const [by, bm, bd] = birthday.split('-').map(Number);
  const [y, m, d] = date.split('-').map(Number);
  let age = y - by;
  if (m < bm || (m === bm && d < bd)) age -= 1;
  return age;
}

/** "Sorry, you must be 21 years old or older to continue." (spec §5); the same sentence with another minimum (an 18+ medical store). */
export function underAgeMessage(minimumAge: number): string {
  return minimumAge === 21 ? FORM_MESSAGES.under21 : `Sorry, you must be ${minimumAge} years old or older to continue.`;
}

export interface BirthdayRuleOptions {
  /** Whose calendar day counts: the store's time zone (default UTC). */
  timeZone?: string;
  /** The youngest who may sign up: 21 (spec §9), or a store's medical minimum (issue 14, 18–21) for a medical customer. */
  minimumAge?: number;
}

/**
 * The birthday of the auth step, registration and every endpoint taking one: given, a real date of
 * a living adult — not in the future, not more than 120 years ago ("Please enter a valid date") —
 * and old enough on today's date in the store's zone: 21 (spec §5, §9), or the store's medical
 * minimum for a medical customer (issue 14). 1800-01-01 is a valid calendar date but not a customer's birthday.
 */
export function birthdayRule(now: Date, opts: BirthdayRuleOptions = {}): FieldRule {
  const minimumAge = opts.minimumAge ?? 21;
  return (value) => {
    const v = value.trim();
    if (!v) return FORM_MESSAGES.birthday;
    const today = todayInZone(now, opts.timeZone);
    if (!isCalendarDate(v) || v > today || v < yearsBefore(today, BIRTHDAY_MAX_AGE_YEARS)) return FORM_MESSAGES.date;
    return ageOnDate(v, today) >= minimumAge ? undefined : underAgeMessage(minimumAge);
  };
}

/** A medical card's expiry date: a real date, not before today where the store is. */
export function medcardExpiryRule(now: Date, timeZone = 'UTC', expiredMessage: string = MEDCARD_MESSAGES.cardExpired): FieldRule {
  return (value) => {
    const v = value.trim();
    if (!v) return FIELD_MESSAGES.required;
    if (!isCalendarDate(v)) return FORM_MESSAGES.date;
    return v < todayInZone(now, timeZone) ? expiredMessage : undefined;
  };
}

/** The login code: the 6 digits of the SMS. */
export const smsCodeRule: FieldRule = (value) => (/^\d{6}$/.test(value.replace(/\s/g, '')) ? undefined : FORM_MESSAGES.smsCode);

/** Spec §5 / §9: a search needs at least 3 characters. */
export const searchTermRule: FieldRule = (value) => (value.trim().length >= 3 ? undefined : FORM_MESSAGES.searchTermTooShort);

/** A checkbox the shopper must tick. */
export type CheckRule = (checked: boolean) => string | undefined;
export const termsRule: CheckRule = (checked) => (checked ? undefined : FORM_MESSAGES.acceptTerms);
export const certifyAgeRule: CheckRule = (checked) => (checked ? undefined : FORM_MESSAGES.mustCertify);

/** Spec §3 uploads: one JPEG, PNG or PDF of at most 10 MB. */
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
export const DOCUMENT_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;

export interface DocumentFile {
  type: string;
  size: number;
  name?: string;
}

/** The ID or medical card upload: present (spec §5 "Please upload your ID / MedCard"), an allowed type and size. */
export function documentRule(kind: 'id' | 'medcard', file: DocumentFile | null | undefined): string | undefined {
  if (!file) return kind === 'id' ? FORM_MESSAGES.uploadId : FORM_MESSAGES.uploadMedcard;
  const byName = /\.(jpe?g|png|pdf)$/i.test(file.name ?? '');
  if (!(DOCUMENT_TYPES as readonly string[]).includes(file.type) && !(file.type === '' && byName)) return FORM_MESSAGES.documentType;
  return file.size > DOCUMENT_MAX_BYTES ? FORM_MESSAGES.documentTooLarge : undefined;
}

/** An amount that must be above zero (spec §5 "Must be greater than 0"). */
export const greaterThanZeroRule: FieldRule = (value) => {
  const n = Number(value.trim());
  return value.trim() && Number.isFinite(n) && n > 0 ? undefined : FORM_MESSAGES.greaterThanZero;
};

export interface QuantityLimits {
  /** The configured most per line ("Quantity cannot be greater than a maximum"). */
  max?: number;
  /** What stock says is available ("Only {maxQuantity} products of this type are available."). */
  available?: number;
  /** An exclusive bound ("Quantity must be below {quantity}"). */
  below?: number;
}

/** A quantity field: a number, positive, whole, within the limits given. */
export function quantityRule(limits: QuantityLimits = {}): FieldRule {
  return (value) => {
    const v = value.trim();
    if (!v) return FIELD_MESSAGES.required;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) return FORM_MESSAGES.qtyPositiveNumber;
    if (n === 0) return FORM_MESSAGES.qtyAboveZero;
    if (!Number.isInteger(n)) return FORM_MESSAGES.qtyPositiveInteger;
    if (limits.below != null && n >= limits.below) return FORM_MESSAGES.qtyBelow(limits.below);
    if (limits.max != null && n > limits.max) return FORM_MESSAGES.qtyAboveMaximum;
    if (limits.available != null && n > limits.available) return FORM_MESSAGES.onlyAvailable(limits.available);
    return undefined;
  };
}
