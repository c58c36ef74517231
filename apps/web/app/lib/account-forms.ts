/**
 * The account forms' field checks (spec §5 Forms and messages): the shared rules of
 * @verdant/domain applied to each form's fields, so the browser answers at once with the words the
 * server would answer with. Each returns the errors by field (empty when the form may be sent).
 */
import {
  FIELD_MESSAGES,
  FORM_MESSAGES,
  addressNameRule,
  AGE_THRESHOLD,
  birthdayRule,
  cityRule,
  documentRule,
  emailRule,
  firstNameRule,
  isLicenseType,
  lastNameRule,
  medcardExpiryRule,
  medcardNumberRule,
  passwordRule,
  passwordsIdentical,
  phoneRule,
  plainTextRule,
  smsCodeRule,
  streetRule,
  termsRule,
  zipRule,
  type DocumentFile,
  type LicenseType,
} from '@verdant/domain';

export { FIELD_MESSAGES, FORM_MESSAGES };

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

function collect<K extends string>(checks: [K, string | undefined][]): FieldErrors<K> {
  const errors: FieldErrors<K> = {};
  for (const [field, message] of checks) if (message && !errors[field]) errors[field] = message;
  return errors;
}

export function hasErrors(errors: Record<string, string | undefined>): boolean {
  return Object.values(errors).some(Boolean);
}

/** Login step 1: the phone number. */
export const validatePhone = (phone: string): FieldErrors<'phone'> => collect([['phone', phoneRule(phone)]]);

/** Login step 2: the SMS code. */
export const validateCode = (code: string): FieldErrors<'code'> => collect([['code', smsCodeRule(code)]]);

/** Login step 3 (a new phone, spec §3 Auth step): licence type and birthday. */
export function validateLicenseStep(
  input: { licenseType: string; birthday: string; medcardNumber?: string; medcardExpiry?: string },
  now: Date,
  timeZone = 'UTC',
  medicalMinimumAge = AGE_THRESHOLD,
): FieldErrors<'licenseType' | 'birthday' | 'medcardNumber' | 'medcardExpiry'> {
  const medical = input.licenseType === 'medical';
  return collect<'licenseType' | 'birthday' | 'medcardNumber' | 'medcardExpiry'>([
    ['licenseType', isLicenseType(input.licenseType) ? undefined : FIELD_MESSAGES.required],
    ['birthday', signUpBirthdayRule(now, timeZone, input.licenseType, medicalMinimumAge)(input.birthday)],
    // A medical account needs the card's number and expiry (issue 26): staff verify against them.
    ['medcardNumber', medical ? medcardNumberRule(input.medcardNumber ?? '') : undefined],
    ['medcardExpiry', medical ? medcardExpiryRule(now, timeZone)(input.medcardExpiry ?? '') : undefined],
  ]);
}

/** The account page's medical card form: number and expiry, as at sign-up. */
export function validateMedcard(input: { medcardNumber: string; medcardExpiry: string }, now: Date, timeZone = 'UTC'): FieldErrors<'medcardNumber' | 'medcardExpiry'> {
  return collect<'medcardNumber' | 'medcardExpiry'>([
    ['medcardNumber', medcardNumberRule(input.medcardNumber)],
    ['medcardExpiry', medcardExpiryRule(now, timeZone)(input.medcardExpiry)],
  ]);
}

/**
 * The sign-up birthday in the browser: old enough on today's date in the store's zone — 21, or for
 * a medical customer the store's medical minimum (root data, issue 14); the server checks again.
 */
function signUpBirthdayRule(now: Date, timeZone: string, licenseType: string, medicalMinimumAge: number) {
  return birthdayRule(now, { timeZone, minimumAge: licenseType === 'medical' ? medicalMinimumAge : AGE_THRESHOLD });
}

export interface RegistrationForm {
  firstname: string;
  lastname: string;
  email: string;
  phone: string;
  birthday: string;
  licenseType: LicenseType | '';
  medcardNumber: string;
  medcardExpiry: string;
  idFile: DocumentFile | null;
  medcardFile: DocumentFile | null;
  terms: boolean;
}

export type RegistrationField = keyof RegistrationForm;

/** Registration: the customer, and for a medical customer the card and both documents (spec §3, §5). */
export function validateRegistration(
  f: RegistrationForm,
  now: Date,
  timeZone = 'UTC',
  medicalMinimumAge = AGE_THRESHOLD,
): FieldErrors<RegistrationField> {
  const medical = f.licenseType === 'medical';
  return collect<RegistrationField>([
    ['firstname', firstNameRule(f.firstname)],
    ['lastname', lastNameRule(f.lastname)],
    ['email', emailRule(f.email)],
    ['phone', phoneRule(f.phone)],
    ['birthday', signUpBirthdayRule(now, timeZone, f.licenseType, medicalMinimumAge)(f.birthday)],
    ['licenseType', f.licenseType ? undefined : FIELD_MESSAGES.required],
    ['medcardNumber', medical ? medcardNumberRule(f.medcardNumber) : undefined],
    ['medcardExpiry', medical ? medcardExpiryRule(now, timeZone)(f.medcardExpiry) : undefined],
    ['idFile', medical || f.idFile ? documentRule('id', f.idFile) : undefined],
    ['medcardFile', medical ? documentRule('medcard', f.medcardFile) : undefined],
    ['terms', termsRule(f.terms)],
  ]);
}

export interface AddressForm {
  title: string;
  street: string;
  house_number: string;
  apt_ste: string;
  city: string;
  postcode: string;
}

export type AddressField = keyof AddressForm;

/** A shipping address of the account (spec §3 Shipping details). */
export function validateAddressForm(a: AddressForm): FieldErrors<AddressField> {
  return collect<AddressField>([
    ['title', addressNameRule(a.title)],
    ['street', streetRule(a.street)],
    ['house_number', plainTextRule(a.house_number)],
    ['apt_ste', plainTextRule(a.apt_ste)],
    ['city', cityRule(a.city)],
    ['postcode', zipRule(a.postcode)],
  ]);
}

/** The name a phone account gives at onboarding: both parts, the spec §5 name rules. */
export function validateName(input: { firstname: string; lastname: string }): FieldErrors<'firstname' | 'lastname'> {
  return collect<'firstname' | 'lastname'>([
    ['firstname', firstNameRule(input.firstname)],
    ['lastname', lastNameRule(input.lastname)],
  ]);
}

export const validateEmail = (email: string): FieldErrors<'email'> => collect([['email', emailRule(email)]]);

/** A new password and its confirmation (create-password and the account's change password). */
export function validateNewPassword(password: string, confirmation: string): FieldErrors<'password' | 'confirmation'> {
  return collect<'password' | 'confirmation'>([
    ['password', passwordRule(password)],
    ['confirmation', confirmation ? passwordsIdentical(password, confirmation) : FIELD_MESSAGES.required],
  ]);
}

export function validatePasswordChange(
  current: string,
  password: string,
  confirmation: string,
): FieldErrors<'current' | 'password' | 'confirmation'> {
  return {
    ...collect<'current'>([['current', current ? undefined : FIELD_MESSAGES.required]]),
    ...validateNewPassword(password, confirmation),
  };
}

/** The first field with an error, in the form's order (focus goes there). */
export function firstInvalid<K extends string>(order: readonly K[], errors: FieldErrors<K>): K | undefined {
  return order.find((k) => errors[k]);
}
