import { describe, expect, it } from 'vitest';
import { EMPTY_CHECKOUT } from '../state/checkout-store.ts';
import { FIELD_MESSAGES as M, validateAddress, validatePersonal, validatePoints } from './checkout-validation.ts';

const ok = { firstName: 'Ada', lastName: 'Lovelace', emailAddress: 'ada@example.com', phone: '(916) 555-0100', createAccount: false };

describe('checkout field rules (spec §5)', () => {
  it('accepts a complete shopper', () => {
    expect(validatePersonal(ok)).toEqual({});
    expect(validatePersonal({ ...ok, firstName: 'Zoë', lastName: "O'Neil-Brown" })).toEqual({});
  });

  it('says what is wrong per field, with the spec words', () => {
    expect(validatePersonal({ ...EMPTY_CHECKOUT.personal })).toEqual({ firstName: M.required, lastName: M.required, emailAddress: M.required, phone: M.required });
    expect(validatePersonal({ ...ok, lastName: 'L', emailAddress: 'ada@', phone: '12-34' })).toEqual({
      lastName: 'Name must have at least 2 letters',
      emailAddress: 'Please provide valid e-mail address.',
      phone: 'Please provide valid phone number',
    });
    expect(validatePersonal({ ...ok, firstName: 'R2D2' }).firstName).toBe(M.onlyLetters);
    expect(validatePersonal({ ...ok, phone: '+1 916 555 0100 1234 5678' }).phone).toBe(M.phone);
  });

  it('checks the address only for delivery; zip at least 3 characters, then a US ZIP', () => {
    const pickup = EMPTY_CHECKOUT.shipping;
    expect(validateAddress(pickup)).toEqual({});
    const delivery = { ...pickup, method: 'delivery' as const };
    expect(validateAddress(delivery)).toEqual({ address: M.required, city: M.required, zip: M.required });
    expect(validateAddress({ ...delivery, address: '1 K St', city: 'Sacramento', zip: '95' }).zip).toBe('Zip-code must have at least 3 letters');
    expect(validateAddress({ ...delivery, address: '1 K St', city: 'Sacramento', zip: '958' }).zip).toBe('Please provide valid zip code');
    expect(validateAddress({ ...delivery, address: '1 K St', city: 'Sacramento', zip: '95814-1234' })).toEqual({});
  });

  it('takes whole reward points only', () => {
    expect(validatePoints('')).toBeUndefined();
    expect(validatePoints('120')).toBeUndefined();
    expect(validatePoints('12.5')).toBe('Points to redeem cannot contain decimals');
  });
});
