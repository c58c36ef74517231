import { describe, expect, it } from 'vitest';
import {
  firstInvalid,
  hasErrors,
  validateAddressForm,
  validateCode,
  validateEmail,
  validateLicenseStep,
  validateNewPassword,
  validatePasswordChange,
  validatePhone,
  validateName,
  validateRegistration,
  type RegistrationForm,
} from './account-forms.ts';

const now = new Date('2026-11-20T12:00:00Z');
const png = { type: 'image/png', size: 2048, name: 'id.png' };
const base: RegistrationForm = {
  firstname: 'Ana',
  lastname: 'Diaz',
  email: 'ana@example.com',
  phone: '(916) 555-0101',
  birthday: '1990-01-01',
  licenseType: 'recreational',
  medcardNumber: '',
  medcardExpiry: '',
  idFile: null,
  medcardFile: null,
  terms: true,
};

describe('account forms (spec §5 messages)', () => {
  it('login steps: phone, SMS code, licence and birthday', () => {
    expect(validatePhone('555')).toEqual({ phone: 'Please provide valid phone number' });
    expect(validatePhone('')).toEqual({ phone: 'Field is required' });
    expect(validatePhone('(916) 555-0101')).toEqual({});
    expect(validateCode('')).toEqual({ code: 'Please enter the SMS code you received.' });
    expect(validateCode('123456')).toEqual({});
    expect(validateLicenseStep({ licenseType: '', birthday: '' }, now)).toEqual({ licenseType: 'Field is required', birthday: 'Please enter your birthday' });
    expect(validateLicenseStep({ licenseType: 'recreational', birthday: '2010-01-01' }, now)).toEqual({
      birthday: 'Sorry, you must be 21 years old or older to continue.',
    });
    // A patient: the store's medical minimum (21 unless it sets 18–21; issue 14), and the card's
    // number and expiry (issue 26).
    const card = { medcardNumber: 'MC-1', medcardExpiry: '2099-01-01' };
    expect(validateLicenseStep({ licenseType: 'medical', birthday: '1990-01-01' }, now)).toEqual({
      medcardNumber: 'Field is required',
      medcardExpiry: 'Field is required',
    });
    expect(validateLicenseStep({ licenseType: 'medical', birthday: '1990-01-01', medcardNumber: 'M', medcardExpiry: '2000-01-01' }, now)).toEqual({
      medcardNumber: 'MedCard number must have at least 2 letters',
      medcardExpiry: 'Your medical card has expired. Please update it before ordering medical products.',
    });
    expect(validateLicenseStep({ licenseType: 'medical', birthday: '2010-01-01', ...card }, now)).toEqual({
      birthday: 'Sorry, you must be 21 years old or older to continue.',
    });
    expect(validateLicenseStep({ licenseType: 'medical', birthday: '2010-01-01', ...card }, now, 'UTC', 18)).toEqual({
      birthday: 'Sorry, you must be 18 years old or older to continue.',
    });
    expect(validateLicenseStep({ licenseType: 'medical', birthday: '2007-01-01', ...card }, now, 'UTC', 18)).toEqual({});
    expect(validateLicenseStep({ licenseType: 'recreational', birthday: '2007-01-01' }, now, 'UTC', 18)).toEqual({
      birthday: 'Sorry, you must be 21 years old or older to continue.',
    });
    expect(validateLicenseStep({ licenseType: 'medical', birthday: '1990-01-01', ...card }, now)).toEqual({});
  });

  it('a recreational registration needs no card; terms must be accepted', () => {
    expect(validateRegistration(base, now)).toEqual({});
    expect(validateRegistration({ ...base, terms: false }, now)).toEqual({ terms: 'You must accept the terms and conditions' });
    expect(validateRegistration({ ...base, firstname: '', lastname: 'D', email: 'ana@', birthday: '' }, now)).toEqual({
      firstname: 'Field is required',
      lastname: 'Name must have at least 2 letters',
      email: 'Please provide valid e-mail address.',
      birthday: 'Please enter your birthday',
    });
  });

  it('issue 11: a one-letter first name and a birthday of 1800-01-01 are refused by the form', () => {
    expect(validateRegistration({ ...base, firstname: 'J', birthday: '1800-01-01' }, now)).toEqual({
      firstname: 'Name must have at least 2 letters',
      birthday: 'Please enter a valid date',
    });
    expect(validateLicenseStep({ licenseType: 'recreational', birthday: '1800-01-01' }, now)).toEqual({ birthday: 'Please enter a valid date' });
    expect(validateName({ firstname: 'J', lastname: '' })).toEqual({ firstname: 'Name must have at least 2 letters', lastname: 'Field is required' });
    expect(validateName({ firstname: 'Jo', lastname: 'Reyes' })).toEqual({});
  });

  it('a medical registration needs the card number (≥ 2), its expiry and both uploads', () => {
    const medical = { ...base, licenseType: 'medical' as const };
    expect(validateRegistration(medical, now)).toEqual({
      medcardNumber: 'Field is required',
      medcardExpiry: 'Field is required',
      idFile: 'Please upload your ID',
      medcardFile: 'Please upload your MedCard',
    });
    expect(
      validateRegistration({ ...medical, medcardNumber: 'X', medcardExpiry: '2026-11-19', idFile: { type: 'image/gif', size: 1 }, medcardFile: { type: 'application/pdf', size: 11 * 1024 * 1024 } }, now),
    ).toEqual({
      medcardNumber: 'MedCard number must have at least 2 letters',
      medcardExpiry: 'Your medical card has expired. Please update it before ordering medical products.',
      idFile: 'Only JPEG, PNG or PDF files can be uploaded.',
      medcardFile: 'The file is larger than 10 MB.',
    });
    expect(validateRegistration({ ...medical, medcardNumber: 'MC-1', medcardExpiry: '2027-12-31', idFile: png, medcardFile: png }, now)).toEqual({});
  });

  it('addresses: street required, no special characters, valid city and zip', () => {
    const ok = { title: 'Home', street: '1001 K Street', house_number: '', apt_ste: '2B', city: 'Sacramento', postcode: '95816' };
    expect(validateAddressForm(ok)).toEqual({});
    expect(validateAddressForm({ ...ok, title: 'Ho', street: '', apt_ste: '<2>', city: 'S4c', postcode: '95' })).toEqual({
      title: 'Name must have at least 3 letters',
      street: 'Field is required',
      apt_ste: 'Special Characters are not allowed',
      city: 'Please provide valid city name',
      postcode: 'Zip-code must have at least 3 letters',
    });
  });

  it('e-mail and passwords', () => {
    expect(validateEmail('x@y')).toEqual({ email: 'Please provide valid e-mail address.' });
    expect(validateNewPassword('short', '')).toEqual({ password: 'Password must have at least 8 letters', confirmation: 'Field is required' });
    expect(validateNewPassword('long enough', 'long enougH')).toEqual({ confirmation: 'Passwords must be identical' });
    expect(validateNewPassword('long enough', 'long enough')).toEqual({});
    expect(validatePasswordChange('', 'long enough', 'long enough')).toEqual({ current: 'Field is required' });
  });

  it('helpers: any error, and the first invalid field in form order', () => {
    expect(hasErrors({ a: undefined })).toBe(false);
    expect(hasErrors({ a: 'x' })).toBe(true);
    expect(firstInvalid(['a', 'b', 'c'] as const, { c: 'x', b: 'y' })).toBe('b');
  });
});
