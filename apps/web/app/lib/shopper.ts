import { effectiveLicenseType, type LicenseType, type Store } from '@verdant/domain';

/**
 * The shopper state kept in cookies before any login: the age confirmation (spec §1, §9 age 21)
 * and the chosen licence type (spec §6). Both are read on the server for every page so the age gate
 * is server-rendered (no flash) and the home lists are filtered by licence on first paint.
 */
export const AGE_COOKIE = 'verdant_age';
export const LICENSE_COOKIE = 'verdant_license';
/** One year, in seconds. */
export const SHOPPER_COOKIE_MAX_AGE = 60 * 60 * 24 * 365;

export interface ShopperState {
  ageConfirmed: boolean;
  /** Always a type the store offers (a single-licence store always gets its own type). */
  licenseType: LicenseType;
  /** True when the cookie carried a type this store offers (false: the store's default applies). */
  licenseChosen: boolean;
}

/**
 * `a=1; b=x%20y` → `{a: '1', b: 'x y'}`. Never throws: malformed pairs are skipped, undecodable
 * values are kept raw, and the first occurrence of a name wins (RFC 6265 §5.4 ordering).
 */
export function parseCookieHeader(header: string | null | undefined): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || name in out) continue;
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      out[name] = decodeURIComponent(value);
    } catch {
      out[name] = value;
    }
  }
  return out;
}

export function readShopper(
  cookieHeader: string | null | undefined,
  store: Pick<Store, 'dispensarySettings'>,
): ShopperState {
  const cookies = parseCookieHeader(cookieHeader);
  const chosen = cookies[LICENSE_COOKIE];
  const licenseType = effectiveLicenseType(store, chosen);
  return {
    ageConfirmed: cookies[AGE_COOKIE] === '1',
    licenseType,
    licenseChosen: chosen === licenseType,
  };
}

export interface CookieOptions {
  maxAge?: number;
  /** Add `Secure` (set it when the request came over https). */
  secure?: boolean;
}

/** A Set-Cookie value: Path=/, SameSite=Lax, one year unless told otherwise. */
export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  const maxAge = options.maxAge ?? SHOPPER_COOKIE_MAX_AGE;
  const parts = [`${name}=${encodeURIComponent(value)}`, `Max-Age=${Math.floor(maxAge)}`, 'Path=/', 'SameSite=Lax'];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

export function ageConfirmedCookie(options?: CookieOptions): string {
  return serializeCookie(AGE_COOKIE, '1', options);
}

export function licenseTypeCookie(licenseType: LicenseType, options?: CookieOptions): string {
  return serializeCookie(LICENSE_COOKIE, licenseType, options);
}
