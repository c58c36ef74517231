/**
 * Identity phone numbers in E.164 ("+19165550142"), parsed by libphonenumber-js with the US as
 * the default region: "+1 (916) 555-0142", "1-916-5550142" and "9165550142" are one number, so
 * one customer and one set of send limits. Only identity phones (customers.phone, auth_codes.phone,
 * the rate-limit keys) are normalised; order contacts and address phones keep what was typed.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';

export const DEFAULT_REGION = 'US' as const;

/** The E.164 form of a phone number, or null when it is not a valid number. */
export function toE164(input: string): string | null {
  const parsed = parsePhoneNumberFromString(input.trim(), DEFAULT_REGION);
  return parsed && parsed.isValid() ? parsed.number : null;
}

/** For log lines: the country code and the last two digits only ("+1*******42"). */
export function maskPhone(phone: string): string {
  if (phone.length <= 4) return '*'.repeat(phone.length);
  return `${phone.slice(0, 2)}${'*'.repeat(phone.length - 4)}${phone.slice(-2)}`;
}
