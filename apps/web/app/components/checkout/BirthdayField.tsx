import { AGE_MESSAGES, checkOrderAge, type LicenseType } from '@verdant/domain';
import { Field } from './Field.tsx';

/**
 * Age on every order (issue 14): a guest's date of birth, asked at checkout (a customer's comes
 * from the account, so the field is not shown to one who has it). Kept in the page's state only,
 * not in the saved checkout: a date of birth is not left on the device longer than the order needs
 * (the pending and the offline-queued order carry it, as they must).
 */
export function BirthdayField({ value, onChange, error }: { value: string; onChange(value: string): void; error?: string }) {
  return (
    <Field
      id="birthday"
      label="Date of birth"
      required
      type="date"
      autoComplete="bday"
      hint="You must be 21 or older to order (18 for medical orders where the store allows it)."
      value={value}
      onChange={onChange}
      error={error}
    />
  );
}

/**
 * The browser's age check (the server's rule, @verdant/domain checkOrderAge): the date is given
 * and valid, and the shopper is old enough on the order date in the store's zone — 21, or for a
 * medical order the store's medical minimum (root data, issue 14). The server checks again with
 * the setting of the moment; its words come back onto this field (isAgeMessage).
 */
export function birthdayProblem(
  birthday: string,
  licenseType: LicenseType,
  timeZone: string,
  medicalMinimumAge: number,
  now = new Date(),
): string | undefined {
  return checkOrderAge({ birthday, licenseType, now, timeZone, settings: { medicalMinimumAge } }).problem;
}

/** A refusal of the order that is about the date of birth: shown on the field, not above the form. */
export function isAgeMessage(message: string): boolean {
  return (
    message === AGE_MESSAGES.birthday ||
    message === AGE_MESSAGES.date ||
    /^Sorry, you must be \d+ years old or older to continue\.$/.test(message)
  );
}
