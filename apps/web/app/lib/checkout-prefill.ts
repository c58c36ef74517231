/**
 * What checkout fills in for a logged-in customer (issue 11): the account's name, phone and
 * e-mail, and its default address (or its only one). Only empty fields are filled: what the
 * shopper typed is never overwritten, and a field they cleared stays cleared until the next visit.
 */
import type { CurrentUser } from '../api/user.ts';
import type { PersonalDetails, ShippingDetails } from '../state/checkout-store.ts';
import { phoneForDisplay } from './account-view.ts';

type Account = Pick<CurrentUser, 'firstname' | 'lastname' | 'email' | 'phone' | 'addresses'>;

/** The address checkout offers: the default one, else the only one. */
export function checkoutAddressOf(user: Pick<CurrentUser, 'addresses'>): CurrentUser['addresses'][number] | null {
  return user.addresses.find((a) => a.is_default) ?? (user.addresses.length === 1 ? user.addresses[0] : null);
}

/** The personal details to fill in: the account's, else the names on its address. */
export function personalPrefill(p: PersonalDetails, user: Account): Partial<PersonalDetails> {
  const address = checkoutAddressOf(user);
  const fill: Partial<PersonalDetails> = {};
  const firstName = user.firstname || address?.firstname;
  const lastName = user.lastname || address?.lastname;
  if (!p.firstName && firstName) fill.firstName = firstName;
  if (!p.lastName && lastName) fill.lastName = lastName;
  if (!p.emailAddress && user.email) fill.emailAddress = user.email;
  if (!p.phone && user.phone) fill.phone = phoneForDisplay(user.phone);
  return fill;
}

/** The delivery address to fill in: only into an empty address (street, city and ZIP all empty). */
export function shippingPrefill(s: ShippingDetails, user: Pick<CurrentUser, 'addresses'>): Partial<ShippingDetails> {
  const a = checkoutAddressOf(user);
  if (!a || s.address || s.city || s.zip) return {};
  const street = [a.street, a.house_number].filter(Boolean).join(' ');
  return { address: street, apt_ste: s.apt_ste || (a.apt_ste ?? ''), city: a.city, zip: a.postcode };
}
