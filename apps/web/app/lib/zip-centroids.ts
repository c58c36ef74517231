/**
 * Where a delivery address is, without a geocoding service: a small table of ZIP code centroids
 * for the demo stores' cities (Sacramento 958xx with Elk Grove, Oakland 946xx). The server decides
 * the distance and whether the address is too far (POST /api/cart/shipping-information with lat
 * and lng); the browser only needs a point for the ZIP. Values are the approximate centres of the
 * Census ZIP Code Tabulation Areas (rounded to 4 decimals, about 10 m) — good enough to judge a
 * 8–15 mile delivery radius, not a street address. A ZIP not in the table cannot be checked: the
 * checkout says so and offers pickup. Replace this with a geocoder when one is available.
 */
export interface ZipCentroid {
  lat: number;
  lng: number;
  city: string;
}

const SACRAMENTO: Record<string, [number, number]> = {
  '95811': [38.5763, -121.4883],
  '95814': [38.5804, -121.4922],
  '95815': [38.6096, -121.4436],
  '95816': [38.5728, -121.4674],
  '95817': [38.5498, -121.4583],
  '95818': [38.5568, -121.4929],
  '95819': [38.5683, -121.4366],
  '95820': [38.5347, -121.4455],
  '95821': [38.6239, -121.3838],
  '95822': [38.5091, -121.4935],
  '95823': [38.4797, -121.4438],
  '95824': [38.5178, -121.4419],
  '95825': [38.5894, -121.4057],
  '95826': [38.5539, -121.3693],
  '95827': [38.5662, -121.3285],
  '95828': [38.4826, -121.4006],
  '95831': [38.4962, -121.5297],
  '95832': [38.4695, -121.4883],
  '95833': [38.6156, -121.5052],
  '95834': [38.6383, -121.5072],
  '95835': [38.6626, -121.4834],
  '95838': [38.6406, -121.444],
  '95841': [38.6627, -121.3406],
  '95842': [38.6865, -121.3494],
  '95864': [38.5878, -121.3769],
};

const ELK_GROVE: Record<string, [number, number]> = {
  '95624': [38.4227, -121.3597],
  '95757': [38.387, -121.4381],
  '95758': [38.4241, -121.4369],
};

const OAKLAND: Record<string, [number, number]> = {
  '94601': [37.7767, -122.2167],
  '94602': [37.8011, -122.2104],
  '94603': [37.7402, -122.171],
  '94605': [37.7641, -122.1633],
  '94606': [37.7924, -122.2444],
  '94607': [37.8071, -122.285],
  '94609': [37.834, -122.2638],
  '94610': [37.8122, -122.2416],
  '94611': [37.83, -122.203],
  '94612': [37.8088, -122.27],
  '94618': [37.8431, -122.24],
  '94619': [37.7879, -122.1884],
  '94621': [37.739, -122.197],
};

const TABLE = new Map<string, ZipCentroid>(
  (
    [
      [SACRAMENTO, 'Sacramento'],
      [ELK_GROVE, 'Elk Grove'],
      [OAKLAND, 'Oakland'],
    ] as const
  ).flatMap(([zips, city]) => Object.entries(zips).map(([zip, [lat, lng]]) => [zip, { lat, lng, city }] as const)),
);

/** `95814`, `95814-1234` → `95814`; anything else → null. */
export function normalizeZip(zip: string): string | null {
  const m = /^\s*(\d{5})(?:-\d{4})?\s*$/.exec(zip);
  return m ? m[1] : null;
}

/** The centroid of a ZIP the table knows, or null (delivery cannot be checked for it). */
export function lookupZip(zip: string): ZipCentroid | null {
  const z = normalizeZip(zip);
  return z ? (TABLE.get(z) ?? null) : null;
}

/** The ZIP codes of a city the table knows (to suggest when a ZIP is unknown). */
export function knownZips(city?: string): string[] {
  return [...TABLE.entries()].filter(([, c]) => !city || c.city === city).map(([zip]) => zip);
}
