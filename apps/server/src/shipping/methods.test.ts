import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseStoresFile } from '@verdant/domain';
import { DEMO_STORES_FILE } from '../config.ts';
import { DELIVERY_MESSAGES } from '@verdant/domain';
import { deliveryAreaOf, deliveryCheck, deliveryTo, distanceMiles, paymentMethodsFor, shippingInclTax, shippingMethodsFor } from './methods.ts';

const [downtown] = parseStoresFile(JSON.parse(fs.readFileSync(DEMO_STORES_FILE, 'utf8'))).stores;

describe('shipping', () => {
  it('measures great-circle miles', () => {
    // San Francisco City Hall to Los Angeles City Hall: about 347 miles.
    expect(distanceMiles({ lat: 37.7793, lng: -122.4193 }, { lat: 34.0537, lng: -118.2428 })).toBeCloseTo(347.4, 0);
    expect(distanceMiles({ lat: 38.5, lng: -121.5 }, { lat: 38.5, lng: -121.5 })).toBe(0);
  });

  it('flags an address beyond the store’s delivery radius (10 miles downtown)', () => {
    expect(deliveryCheck(deliveryAreaOf(downtown), { lat: 38.5906, lng: -121.4944 })).toEqual({ distance: 0.62, too_far: false });
    expect(deliveryCheck(deliveryAreaOf(downtown), { lat: 38.7256, lng: -121.4944 })).toEqual({ distance: 9.95, too_far: false });
    expect(deliveryCheck(deliveryAreaOf(downtown), { lat: 38.7276, lng: -121.4944 })).toEqual({ distance: 10.09, too_far: true });
    const noDelivery = { ...downtown, dispensarySettings: { ...downtown.dispensarySettings, place_info: { ...downtown.dispensarySettings.place_info, delivery_radius_miles: 0 } } };
    expect(deliveryCheck(deliveryAreaOf(noDelivery), { lat: 38.5816, lng: -121.4944 }).too_far).toBe(true);
    expect(shippingMethodsFor(noDelivery).map((m) => m.method_code)).toEqual(['pickup']);
  });

  it('decides delivery from the ZIP code alone (zipcodes table), with the shopper’s message', () => {
    // 95814 is downtown Sacramento, 95670 Rancho Cordova (~12 mi: beyond downtown's 10), 10001 New York.
    expect(deliveryTo(downtown, '95814')).toEqual({ zip: '95814', distance: 0.14, too_far: false });
    expect(deliveryTo(downtown, ' 95814-1234 ')).toMatchObject({ zip: '95814', too_far: false });
    expect(() => deliveryTo(downtown, '10001')).toThrow(DELIVERY_MESSAGES.tooFar('10001', 2499.7, 10));
    expect(() => deliveryTo(downtown, '95670')).toThrow(/ZIP 95670 is 11\.\d+ miles from the store, outside its 10-mile delivery area/);
    expect(() => deliveryTo(downtown, '00000')).toThrow(DELIVERY_MESSAGES.unknownZip('00000'));
    expect(() => deliveryTo(downtown, 'ABCDE')).toThrow(DELIVERY_MESSAGES.zipRequired);
    expect(() => deliveryTo(downtown, undefined)).toThrow(DELIVERY_MESSAGES.zipRequired);
  });

  it('prices pickup 0 and delivery 5 including tax (spec §9)', () => {
    expect(shippingMethodsFor(downtown).map((m) => [m.method_code, m.fees, m.price_incl_tax, m.default])).toEqual([
      ['pickup', 0, 0, true],
      ['delivery', 400, 500, false],
    ]);
    expect(shippingInclTax('delivery')).toBe(500);
    expect(shippingInclTax('pickup')).toBe(0);
  });

  it('hides cash on delivery for an all-virtual cart only', () => {
    expect(paymentMethodsFor(['virtual', 'downloadable'])).toEqual([]);
    expect(paymentMethodsFor(['virtual', 'simple']).map((m) => m.code)).toEqual(['cashondelivery']);
    expect(paymentMethodsFor([]).map((m) => m.code)).toEqual(['cashondelivery']);
  });
});
