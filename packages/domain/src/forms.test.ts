import { describe, expect, it } from 'vitest';
import { FIELD_MESSAGES, cityRule, emailRule, firstNameRule, lastNameRule, phoneRule, pointsRule, requiredRule, zipRule } from './forms.ts';

describe('form rules (spec §5)', () => {
  it.each([
    [firstNameRule, '', FIELD_MESSAGES.required],
    [firstNameRule, 'J', undefined],
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
  ])('%o(%j) → %s', (rule, value, message) => expect(rule(value)).toBe(message));

  it('uses the spec wording', () => {
    expect(FIELD_MESSAGES.required).toBe('Field is required');
    expect(FIELD_MESSAGES.onlyLetters).toBe('Accepts only alphabet characters');
    expect(FIELD_MESSAGES.zipTooShort).toBe('Zip-code must have at least 3 letters');
  });
});
