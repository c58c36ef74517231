import { describe, expect, it } from 'vitest';
import { parseStoresFile } from '@verdant/domain';
import demo from '../../../server/config/stores.demo.json' with { type: 'json' };
import {
  AGE_COOKIE,
  ageConfirmedCookie,
  LICENSE_COOKIE,
  licenseTypeCookie,
  parseCookieHeader,
  readShopper,
  serializeCookie,
} from './shopper.ts';

const file = parseStoresFile(demo);
const store = (code: string) => file.stores.find((s) => s.storeCode === code)!;
const both = store('downtown');
const recOnly = store('eastside');
const medOnly = store('wellness');

describe('parseCookieHeader', () => {
  it('reads name=value pairs and decodes values', () => {
    expect(parseCookieHeader('a=1; b=x%20y;c="quoted"')).toEqual({ a: '1', b: 'x y', c: 'quoted' });
  });

  it('never throws on junk and keeps the first occurrence of a name', () => {
    expect(parseCookieHeader(null)).toEqual({});
    expect(parseCookieHeader('')).toEqual({});
    expect(parseCookieHeader(';;=x; novalue; a=%E0%A4%A; a=second')).toEqual({ a: '%E0%A4%A' });
  });
});

describe('readShopper', () => {
  it('defaults to a locked store and its first licence type', () => {
    expect(readShopper(undefined, both)).toEqual({ ageConfirmed: false, licenseType: 'recreational', licenseChosen: false });
    expect(readShopper('', medOnly).licenseType).toBe('medical');
  });

  it('confirms age only for the exact value 1', () => {
    expect(readShopper(`${AGE_COOKIE}=1`, both).ageConfirmed).toBe(true);
    for (const v of ['0', 'true', '11', '', ' 1x']) expect(readShopper(`${AGE_COOKIE}=${v}`, both).ageConfirmed).toBe(false);
  });

  it('keeps an offered licence type and replaces one the store does not offer', () => {
    expect(readShopper(`${LICENSE_COOKIE}=medical`, both)).toMatchObject({ licenseType: 'medical', licenseChosen: true });
    expect(readShopper(`${LICENSE_COOKIE}=medical`, recOnly)).toMatchObject({ licenseType: 'recreational', licenseChosen: false });
    expect(readShopper(`${LICENSE_COOKIE}=recreational`, medOnly).licenseType).toBe('medical');
    expect(readShopper(`${LICENSE_COOKIE}=__proto__`, both).licenseType).toBe('recreational');
  });
});

describe('Set-Cookie values', () => {
  it('last a year on the whole site with SameSite=Lax', () => {
    expect(ageConfirmedCookie()).toBe('verdant_age=1; Max-Age=31536000; Path=/; SameSite=Lax');
    expect(licenseTypeCookie('medical', { secure: true })).toBe(
      'verdant_license=medical; Max-Age=31536000; Path=/; SameSite=Lax; Secure',
    );
  });

  it('round-trip through the parser', () => {
    const header = [serializeCookie('x', 'a b;c'), ageConfirmedCookie()].map((c) => c.split(';')[0]).join('; ');
    expect(parseCookieHeader(header)).toEqual({ x: 'a b;c', verdant_age: '1' });
  });
});
