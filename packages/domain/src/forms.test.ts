import { describe, expect, it } from 'vitest';
import {
  FIELD_MESSAGES,
  FORM_MESSAGES,
  addressNameRule,
  birthdayRule,
  certifyAgeRule,
  cityRule,
  dateRule,
  documentRule,
  emailRule,
  firstNameRule,
  optionalNameRule,
  greaterThanZeroRule,
  lastNameRule,
  medcardExpiryRule,
  medcardNumberRule,
  nameTooShortMessage,
  passwordRule,
  passwordsIdentical,
  phoneRule,
  plainTextRule,
  pointsRule,
  quantityRule,
  requiredRule,
  searchTermRule,
  smsCodeRule,
  streetRule,
  taxIdRule,
  taxIdentificationRule,
  termsRule,
  zipRule,
} from './forms.ts';

describe('form rules (spec §5)', () => {
  it.each([
    [firstNameRule, '', FIELD_MESSAGES.required],
    [firstNameRule, 'J', FIELD_MESSAGES.nameTooShort],
    [firstNameRule, ' J. ', FIELD_MESSAGES.nameTooShort],
    [firstNameRule, 'Jo', undefined],
    [optionalNameRule, '', undefined],
    [optionalNameRule, 'J', FIELD_MESSAGES.nameTooShort],
    [optionalNameRule, 'Ana', undefined],
    [firstNameRule, 'Jo3', FIELD_MESSAGES.onlyLetters],
    [lastNameRule, 'X', FIELD_MESSAGES.nameTooShort],
    [lastNameRule, "O'Neil-Ruiz", undefined],
    [lastNameRule, 'Łukasz', undefined],
    [emailRule, '  ', FIELD_MESSAGES.required],
    [emailRule, 'ana@example', FIELD_MESSAGES.email],
    [emailRule, 'ana@example.com', undefined],
    [phoneRule, '555', FIELD_MESSAGES.phone],
    [phoneRule, '(916) 555-0120', undefined],
    [phoneRule, '+1 916 555 0120 555 0120', FIELD_MESSAGES.phone],
    [cityRule, 'Sacramento', undefined],
    [cityRule, 'S@cramento', FIELD_MESSAGES.city],
    [zipRule, '95', FIELD_MESSAGES.zipTooShort],
    [zipRule, '9581x', FIELD_MESSAGES.zip],
    [zipRule, '95814', undefined],
    [zipRule, '95814-1234', undefined],
    [requiredRule, ' ', FIELD_MESSAGES.required],
    [pointsRule, '', undefined],
    [pointsRule, '150', undefined],
    [pointsRule, '1.5', 'Points to redeem cannot contain decimals'],
    [passwordRule, '', FIELD_MESSAGES.required],
    [passwordRule, 'seven77', 'Password must have at least 8 letters'],
    [passwordRule, 'eight888', undefined],
    [passwordRule, '        ', undefined],
    [addressNameRule, '', undefined],
    [addressNameRule, 'Jo', 'Name must have at least 3 letters'],
    [addressNameRule, 'Home', undefined],
    [addressNameRule, 'H0me', FIELD_MESSAGES.onlyLetters],
    [plainTextRule, 'Apt 4B, #12', undefined],
    [plainTextRule, '1 Main St; DROP', 'Special Characters are not allowed'],
    [streetRule, '', FIELD_MESSAGES.required],
    [streetRule, '1001 K Street', undefined],
    [streetRule, '1001 K <Street>', 'Special Characters are not allowed'],
    [medcardNumberRule, '', FIELD_MESSAGES.required],
    [medcardNumberRule, ' 7 ', 'MedCard number must have at least 2 letters'],
    [medcardNumberRule, '77', undefined],
    [taxIdRule, '', undefined],
    [taxIdRule, '12', 'Tax ID must have at least 3 letters'],
    [taxIdRule, '123', undefined],
    [taxIdentificationRule, 'AB', 'Tax identification number must have at least 3 letters'],
    [taxIdentificationRule, 'ABC', undefined],
    [dateRule, '', FIELD_MESSAGES.required],
    [dateRule, '2026-02-30', 'Please enter a valid date'],
    [dateRule, '11/20/2026', 'Please enter a valid date'],
    [dateRule, '2028-02-29', undefined],
    [smsCodeRule, '', 'Please enter the SMS code you received.'],
    [smsCodeRule, '12345', 'Please enter the SMS code you received.'],
    [smsCodeRule, '123 456', undefined],
    [searchTermRule, 'og', 'Searched term at least 3 characters.'],
    [searchTermRule, ' kush ', undefined],
    [greaterThanZeroRule, '0', 'Must be greater than 0'],
    [greaterThanZeroRule, '-1', 'Must be greater than 0'],
    [greaterThanZeroRule, 'abc', 'Must be greater than 0'],
    [greaterThanZeroRule, '0.5', undefined],
  ])('%o(%j) → %s', (rule, value, message) => expect(rule(value)).toBe(message));

  it('uses the spec wording', () => {
    expect(FIELD_MESSAGES.required).toBe('Field is required');
    expect(FIELD_MESSAGES.onlyLetters).toBe('Accepts only alphabet characters');
    expect(FIELD_MESSAGES.zipTooShort).toBe('Zip-code must have at least 3 letters');
    expect(FIELD_MESSAGES.email).toBe('Please provide valid e-mail address.');
    expect(FIELD_MESSAGES.phone).toBe('Please provide valid phone number');
    expect(FIELD_MESSAGES.zip).toBe('Please provide valid zip code');
    expect(FIELD_MESSAGES.city).toBe('Please provide valid city name');
    expect(FIELD_MESSAGES.passwordTooShort).toBe('Password must have at least 8 letters');
    expect(FIELD_MESSAGES.passwordsDiffer).toBe('Passwords must be identical');
    expect(nameTooShortMessage(2)).toBe('Name must have at least 2 letters');
    expect(nameTooShortMessage(3)).toBe('Name must have at least 3 letters');
    expect(FORM_MESSAGES.mustCertify).toBe('You must certify that you are 21 years old or older to continue');
    expect(FORM_MESSAGES.under21).toBe('Sorry, you must be 21 years old or older to continue.');
  });

  it('passwords must be identical', () => {
    expect(passwordsIdentical('secret-one', 'secret-one')).toBeUndefined();
    expect(passwordsIdentical('secret-one', 'secret-on')).toBe('Passwords must be identical');
  });

  it('the birthday: given, a real past date, 21 or older', () => {
    const rule = birthdayRule(new Date('2026-11-20T12:00:00Z'));
    expect(rule('')).toBe('Please enter your birthday');
    expect(rule('1990-13-01')).toBe('Please enter a valid date');
    expect(rule('2027-01-01')).toBe('Please enter a valid date');
    expect(rule('2005-11-21')).toBe('Sorry, you must be 21 years old or older to continue.');
    expect(rule('2005-11-20')).toBeUndefined();
  });

  it('the birthday counts on the store’s date, and a medical minimum of 18 where a store sets it (issue 14)', () => {
    const now = new Date('2026-11-21T03:00:00Z'); // still 11/20/2026 in Los Angeles
    expect(birthdayRule(now)('2005-11-21')).toBeUndefined(); // 21 on the UTC date
    const la = birthdayRule(now, { timeZone: 'America/Los_Angeles' });
    expect(la('2005-11-21')).toBe('Sorry, you must be 21 years old or older to continue.');
    expect(la('2005-11-20')).toBeUndefined();
    const medical18 = birthdayRule(now, { timeZone: 'America/Los_Angeles', minimumAge: 18 });
    expect(medical18('2008-11-20')).toBeUndefined();
    expect(medical18('2008-11-21')).toBe('Sorry, you must be 18 years old or older to continue.');
  });

  it('the birthday is a living adult\'s: at most 120 years ago (1800-01-01 is refused)', () => {
    const rule = birthdayRule(new Date('2026-11-20T12:00:00Z'));
    expect(rule('1800-01-01')).toBe('Please enter a valid date');
    expect(rule('1900-01-01')).toBe('Please enter a valid date');
    expect(rule('1906-11-19')).toBe('Please enter a valid date');
    expect(rule('1906-11-20')).toBeUndefined();
    expect(rule('1950-06-01')).toBeUndefined();
    expect(rule('0000-01-01')).toBe('Please enter a valid date');
    // On Feb 29 the oldest birthday is Feb 28 of 120 years before (1904 was a leap year: exact).
    expect(birthdayRule(new Date('2024-02-29T12:00:00Z'))('1904-02-29')).toBeUndefined();
    expect(birthdayRule(new Date('2024-02-29T12:00:00Z'))('1904-02-28')).toBe('Please enter a valid date');
  });

  it('a medical card expiring today is valid all day in the store’s zone; yesterday’s is expired', () => {
    const now = new Date('2026-11-21T03:00:00Z'); // still Nov 20 in Los Angeles
    const rule = medcardExpiryRule(now, 'America/Los_Angeles');
    expect(rule('')).toBe(FIELD_MESSAGES.required);
    expect(rule('2026-11-31')).toBe('Please enter a valid date');
    expect(rule('2026-11-20')).toBeUndefined();
    expect(rule('2026-11-19')).toBe('Your medical card has expired. Please update it before ordering medical products.');
  });

  it('checkboxes: terms and the age certification', () => {
    expect(termsRule(false)).toBe('You must accept the terms and conditions');
    expect(termsRule(true)).toBeUndefined();
    expect(certifyAgeRule(false)).toBe('You must certify that you are 21 years old or older to continue');
    expect(certifyAgeRule(true)).toBeUndefined();
  });

  it('uploads: present, PNG/JPEG/PDF, at most 10 MB', () => {
    expect(documentRule('id', null)).toBe('Please upload your ID');
    expect(documentRule('medcard', undefined)).toBe('Please upload your MedCard');
    expect(documentRule('id', { type: 'image/png', size: 1000 })).toBeUndefined();
    expect(documentRule('id', { type: 'application/pdf', size: 10 * 1024 * 1024 })).toBeUndefined();
    expect(documentRule('id', { type: 'image/jpeg', size: 10 * 1024 * 1024 + 1 })).toBe('The file is larger than 10 MB.');
    expect(documentRule('medcard', { type: 'image/gif', size: 10 })).toBe('Only JPEG, PNG or PDF files can be uploaded.');
    expect(documentRule('medcard', { type: '', size: 10, name: 'card.PDF' })).toBeUndefined();
  });

  it('quantities: a positive whole number within the limits, each with its own message', () => {
    const rule = quantityRule({ max: 10, available: 4 });
    expect(rule('')).toBe(FIELD_MESSAGES.required);
    expect(rule('two')).toBe('Quantity must be a positive number');
    expect(rule('-1')).toBe('Quantity must be a positive number');
    expect(rule('0')).toBe('Quantity must be above 0');
    expect(rule('1.5')).toBe('Quantity must be positive integer');
    expect(rule('11')).toBe('Quantity cannot be greater than a maximum');
    expect(rule('5')).toBe('Only 4 products of this type are available.');
    expect(rule('4')).toBeUndefined();
    expect(quantityRule({ below: 100 })('100')).toBe('Quantity must be below 100');
    expect(quantityRule({ below: 100 })('99')).toBeUndefined();
  });
});
