import { describe, expect, it } from 'vitest';
import { distanceOnlyRadius, findZone, geometryContains, ringSide, ZONE_MESSAGES, zoneQuote } from './rules.ts';
import { geometrySchema, zonesSchema } from './schema.ts';

const STORE = { lat: 38.5816, lng: -121.4944 };
const fees = { fee: 400, fee_incl_tax: 500, minimum_order: 0, free_over: null, eta_minutes: 45 };
const parse = (zones: unknown[]) => zonesSchema.parse({ zones }).zones;
/** A point `miles` due north of the store (1° of latitude ≈ 69.09 miles on this sphere). */
const north = (miles: number, zip = '99999') => ({ zip, lat: STORE.lat + miles / 69.0933, lng: STORE.lng });
const square = geometrySchema.parse({
  type: 'Polygon',
  coordinates: [
    [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
      [0, 0],
    ],
    [
      [4, 4],
      [6, 4],
      [6, 6],
      [4, 6],
      [4, 4],
    ],
  ],
});

describe('zones: distance tiers', () => {
  const zones = parse([
    { type: 'distance', name: 'Near', ...fees, max_miles: 3 },
    { type: 'distance', name: 'Far', ...fees, fee: 800, fee_incl_tax: 1000, min_miles: 3, max_miles: 10 },
  ]);
  it('puts a point in the tier its distance falls in, edges to the inner tier', () => {
    expect(findZone(zones, STORE, north(0, '95814'))?.zone.name).toBe('Near');
    expect(findZone(zones, STORE, north(2.99))?.zone.name).toBe('Near');
    expect(findZone(zones, STORE, north(3.01))?.zone.name).toBe('Far');
    expect(findZone(zones, STORE, north(9.99))).toMatchObject({ zone: { name: 'Far' }, distance: 9.99 });
    expect(findZone(zones, STORE, north(10.01))).toBeNull();
    expect(distanceOnlyRadius(zones)).toBe(10);
  });
  it('a ring alone does not cover its centre', () => {
    const ring = parse([{ type: 'distance', name: 'Ring', ...fees, min_miles: 3, max_miles: 10 }]);
    expect(findZone(ring, STORE, north(1))).toBeNull();
    expect(findZone(ring, STORE, north(5))?.zone.name).toBe('Ring');
  });
});

describe('zones: ZIP lists and order', () => {
  it('matches the listed ZIPs only, the first listed zone wins', () => {
    const zones = parse([
      { type: 'zips', name: 'Midtown', ...fees, fee_incl_tax: 300, fee: 250, zips: ['95816', '95811'] },
      { type: 'distance', name: 'Metro', ...fees, max_miles: 10 },
    ]);
    expect(findZone(zones, STORE, north(1, '95816'))?.zone.name).toBe('Midtown');
    expect(findZone(zones, STORE, north(1, '95818'))?.zone.name).toBe('Metro');
    expect(findZone(zones, STORE, north(50, '95811'))?.zone.name).toBe('Midtown');
    expect(findZone(zones, STORE, north(50, '95818'))).toBeNull();
    expect(distanceOnlyRadius(zones)).toBeNull();
    expect(findZone([], STORE, north(0))).toBeNull();
  });
});

describe('zones: polygons (ray casting)', () => {
  const at = (lng: number, lat: number) => ({ lng, lat });
  it('inside, outside, on an edge, on a vertex, in a hole and on a hole’s edge', () => {
    expect(geometryContains(square, at(2, 2))).toBe(true);
    expect(geometryContains(square, at(11, 2))).toBe(false);
    expect(geometryContains(square, at(-0.0001, 5))).toBe(false);
    expect(geometryContains(square, at(0, 5))).toBe(true);
    expect(geometryContains(square, at(10, 10))).toBe(true);
    expect(geometryContains(square, at(5, 0))).toBe(true);
    expect(geometryContains(square, at(5, 5))).toBe(false);
    expect(geometryContains(square, at(4, 5))).toBe(true);
    // A ray through a vertex is counted once (the half-open rule): the point left of a diamond's tip.
    const diamond = [
      [0, -1],
      [1, 0],
      [0, 1],
      [-1, 0],
      [0, -1],
    ];
    expect(ringSide(at(-0.5, 0), diamond)).toBe('inside');
    expect(ringSide(at(-1.5, 0), diamond)).toBe('outside');
    expect(ringSide(at(1.5, 0), diamond)).toBe('outside');
  });
  it('a concave polygon and a MultiPolygon', () => {
    // A "U": the notch between the arms is outside.
    const u = {
      type: 'Polygon' as const,
      coordinates: [
        [
          [0, 0],
          [3, 0],
          [3, 3],
          [2, 3],
          [2, 1],
          [1, 1],
          [1, 3],
          [0, 3],
          [0, 0],
        ] as [number, number][],
      ],
    };
    expect(geometryContains(u, at(1.5, 2))).toBe(false);
    expect(geometryContains(u, at(0.5, 2))).toBe(true);
    expect(geometryContains(u, at(2.5, 2))).toBe(true);
    const multi = {
      type: 'MultiPolygon' as const,
      coordinates: [
        u.coordinates,
        [
          [
            [10, 10],
            [11, 10],
            [11, 11],
            [10, 10],
          ],
        ] as [number, number][][],
      ],
    };
    expect(geometryContains(multi, at(10.9, 10.5))).toBe(true);
    expect(geometryContains(multi, at(10.1, 10.5))).toBe(false);
  });
  it('a zone by polygon contains the ZIP centre inside it', () => {
    const zones = parse([
      {
        type: 'polygon',
        name: 'Downtown',
        ...fees,
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [-121.52, 38.56],
              [-121.47, 38.56],
              [-121.47, 38.6],
              [-121.52, 38.6],
              [-121.52, 38.56],
            ],
          ],
        },
      },
    ]);
    expect(findZone(zones, STORE, { zip: '95814', lat: 38.58, lng: -121.49 })?.zone.name).toBe('Downtown');
    expect(findZone(zones, STORE, { zip: '95816', lat: 38.57, lng: -121.46 })).toBeNull();
  });
});

describe('zones: fee, minimum and free delivery', () => {
  const [zone] = parse([{ type: 'zips', name: 'Midtown', ...fees, minimum_order: 5000, free_over: 10000, zips: ['95816'] }]);
  it('charges the fee under the threshold, nothing from it, and says how much is missing for the minimum', () => {
    expect(zoneQuote(zone, 4999)).toEqual({ fee: 400, feeInclTax: 500, free: false, shortBy: 1 });
    expect(zoneQuote(zone, 5000)).toEqual({ fee: 400, feeInclTax: 500, free: false, shortBy: 0 });
    expect(zoneQuote(zone, 9999)).toMatchObject({ feeInclTax: 500, free: false });
    expect(zoneQuote(zone, 10000)).toEqual({ fee: 0, feeInclTax: 0, free: true, shortBy: 0 });
    expect(ZONE_MESSAGES.belowMinimum(zone, 1201)).toBe(
      'Delivery to Midtown needs an order of at least $50.00: add $12.01 more, or choose pickup.',
    );
    expect(ZONE_MESSAGES.eta(zone)).toBe('about 45 min');
  });
  it('no threshold: never free; no minimum: never short', () => {
    const [plain] = parse([{ type: 'distance', name: 'All', fee: 400, fee_incl_tax: 500, eta_minutes: 60, max_miles: 10 }]);
    expect(plain).toMatchObject({ minimum_order: 0, free_over: null, min_miles: 0 });
    expect(zoneQuote(plain, 10_000_00)).toEqual({ fee: 400, feeInclTax: 500, free: false, shortBy: 0 });
    expect(zoneQuote(plain, 0).shortBy).toBe(0);
  });
});

describe('zones: validation', () => {
  const bad = (zones: unknown[]) => {
    const r = zonesSchema.safeParse({ zones });
    return r.success ? null : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  };
  it('names the field that is wrong', () => {
    expect(bad([{ type: 'zips', name: 'A', ...fees, zips: ['9581'] }])).toMatch(/zips\.0: a ZIP code is 5 digits/);
    expect(
      bad([
        {
          type: 'polygon',
          name: 'A',
          ...fees,
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                [1, 0],
                [1, 1],
                [0, 1],
              ],
            ],
          },
        },
      ]),
    ).toMatch(/geometry\.coordinates\.0: a polygon ring must end where it starts/);
    expect(
      bad([
        {
          type: 'polygon',
          name: 'A',
          ...fees,
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                [1, 0],
                [0, 0],
              ],
            ],
          },
        },
      ]),
    ).toMatch(/at least 4 positions/);
    expect(bad([{ type: 'distance', name: 'A', ...fees, fee: 600, max_miles: 5 }])).toMatch(/fee: fee before tax cannot exceed/);
    expect(bad([{ type: 'distance', name: 'A', ...fees, min_miles: 5, max_miles: 5 }])).toMatch(
      /min_miles: min_miles must be under max_miles/,
    );
    expect(
      bad([
        { type: 'distance', name: 'A', ...fees, max_miles: 5 },
        { type: 'zips', name: 'A', ...fees, zips: ['95814'] },
      ]),
    ).toMatch(/names must be different/);
    expect(bad([{ type: 'circle', name: 'A', ...fees }])).not.toBeNull();
    expect(bad([{ type: 'distance', name: 'A', ...fees, max_miles: 5 }])).toBeNull();
  });

  it('bounds every amount as prices are bounded (under $100,000), and refuses negative and fractional cents', () => {
    const zone = (extra: object) => [{ type: 'distance', name: 'A', ...fees, max_miles: 5, ...extra }];
    expect(bad(zone({ fee_incl_tax: 99_999_99, fee: 99_999_99, minimum_order: 99_999_99, free_over: 99_999_99 }))).toBeNull();
    expect(bad(zone({ fee_incl_tax: 100_000_00 }))).toMatch(/zones\.0\.fee_incl_tax: an amount is at most \$99,999\.99/);
    expect(bad(zone({ minimum_order: 100_000_00 }))).toMatch(/minimum_order: an amount is at most/);
    expect(bad(zone({ free_over: 100_000_00 }))).toMatch(/free_over: an amount is at most/);
    expect(bad(zone({ fee: -1 }))).toMatch(/^zones\.0\.fee: /);
    expect(bad(zone({ fee: 4.5 }))).toMatch(/^zones\.0\.fee: /);
  });
});

