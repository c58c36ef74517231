/**
 * What the console queue's search looks orders up by, stored on each order when it is placed
 * (migration 0011 filled the orders placed before) so that a search is an index range scan on
 * `(store_id, <key>)` instead of a LIKE over every order's JSON:
 *  - `search_phone`: the digits of the contact phone in E.164 ("(916) 555-0142" → "19165550142",
 *    US default region as for identity phones); a phone that is not a valid number keeps its digits
 *    as typed. `search_phone_rev` holds the same digits reversed, so "ends with 0142" is a prefix.
 *  - `search_name`: "first last", `search_surname`: "last first" — lower-cased, accents and other
 *    marks folded ("José Núñez" → "jose nunez"), anything but letters and digits one space.
 * A search matches (see `searchTerms`) when
 *  - the typed digits (3 or more; spaces, brackets, dots, dashes and "+" ignored) begin the number
 *    with or without its country code ("916 555", "+1 916 555 0142", "(916) 555-0142") or end it
 *    ("0142", "555-0142");
 *  - or the typed words, folded the same way, begin "first last" or "last first" ("ana", "ana re",
 *    "reyes", "reyes ana", "Ana Reyes");
 *  - or the text is the order number or its beginning ("DO-100042", "do-1000", "100042").
 * All keys compare bytewise: SQLite's BINARY collation, `collate "C"` columns on PostgreSQL.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js';

export interface OrderSearchKeys {
  search_phone: string;
  search_phone_rev: string;
  search_name: string;
  search_surname: string;
}

/** The calling code of the default region (US): typed national numbers begin with it once stored. */
const DEFAULT_CALLING_CODE = '1';
const FOLDS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

/** Lower-cased, marks removed, letters and digits only, single spaces. */
export function foldName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (c) => FOLDS[c] ?? c)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function phoneDigits(phone: string): string {
  const parsed = parsePhoneNumberFromString(phone.trim(), 'US');
  const e164 = parsed && parsed.isValid() ? parsed.number : phone;
  return e164.replace(/\D/g, '');
}

const reverse = (s: string) => [...s].reverse().join('');

export function orderSearchKeys(details: { firstName?: string; lastName?: string; phone?: string }): OrderSearchKeys {
  const first = foldName(details.firstName ?? '');
  const last = foldName(details.lastName ?? '');
  const digits = phoneDigits(details.phone ?? '');
  return {
    search_phone: digits,
    search_phone_rev: reverse(digits),
    search_name: [first, last].filter(Boolean).join(' '),
    search_surname: [last, first].filter(Boolean).join(' '),
  };
}

/** A prefix match as a range: `key >= from and key < to` (the last character stepped up by one). */
export interface PrefixRange {
  from: string;
  to: string;
}

export function prefixRange(prefix: string): PrefixRange {
  const chars = [...prefix];
  const last = chars.pop()!.codePointAt(0)!;
  return { from: prefix, to: chars.join('') + String.fromCodePoint(last + 1) };
}

export interface SearchTerms {
  /** Order numbers beginning with this (upper-cased as stored). */
  number: PrefixRange | null;
  phone: { column: 'search_phone' | 'search_phone_rev'; range: PrefixRange }[];
  name: { column: 'search_name' | 'search_surname'; range: PrefixRange }[];
}

/**
 * The index ranges a typed search stands for; `orderPrefix` is the store's order-number prefix
 * ("DO"), so that the digits alone ("100042") find the order too.
 */
export function searchTerms(typed: string, orderPrefix: string): SearchTerms | null {
  const text = typed.trim();
  if (!text) return null;
  const terms: SearchTerms = { number: null, phone: [], name: [] };
  const upper = text.toUpperCase().replace(/\s+/g, '');
  const number = /^([A-Z]{1,2})(-?)(\d*)$/.exec(upper);
  if (number) terms.number = prefixRange(number[1].length === 2 && number[3] ? `${number[1]}-${number[3]}` : upper);
  else if (/^\d+$/.test(upper)) terms.number = prefixRange(`${orderPrefix}-${upper}`);
  if (/^[\d\s().+-]+$/.test(text)) {
    const digits = text.replace(/\D/g, '');
    if (digits.length >= 3) {
      const starts = new Set([digits]);
      if (!text.startsWith('+')) starts.add(DEFAULT_CALLING_CODE + digits);
      for (const s of starts) terms.phone.push({ column: 'search_phone', range: prefixRange(s) });
      terms.phone.push({ column: 'search_phone_rev', range: prefixRange(reverse(digits)) });
    }
  } else {
    const name = foldName(text);
    if (name) for (const column of ['search_name', 'search_surname'] as const) terms.name.push({ column, range: prefixRange(name) });
  }
  // Nothing searchable typed ("%", "-"): no filter, as an empty search.
  return terms.number || terms.phone.length || terms.name.length ? terms : null;
}
