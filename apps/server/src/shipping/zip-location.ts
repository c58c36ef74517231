/**
 * Where a US ZIP code is: the `zipcodes` package's offline table (ZIP → centre latitude/longitude,
 * city, state), so the server judges a delivery address from the address itself and never from
 * coordinates a browser sends. Loaded on first use (a few MB of data the rest of the server does
 * not need at start).
 */
import { createRequire } from 'node:module';
import { normalizeZip, type LatLng } from '@verdant/domain';

interface ZipRecord {
  zip: string;
  latitude: number;
  longitude: number;
  city: string;
  state: string;
  country: string;
}

interface ZipLibrary {
  lookup(zip: string): ZipRecord | undefined;
}

export interface ZipLocation extends LatLng {
  zip: string;
  city: string;
  state: string;
}

let library: ZipLibrary | null = null;

function zipLibrary(): ZipLibrary {
  // CommonJS package: required, not imported, so ESM and the test runner load it the same way.
  library ??= createRequire(import.meta.url)('zipcodes') as ZipLibrary;
  return library;
}

/** The centre of a 5-digit US ZIP code (ZIP+4 accepted), or null when it is not one the table knows. */
export function zipLocation(zip: string): ZipLocation | null {
  const z = normalizeZip(zip);
  if (!z) return null;
  const hit = zipLibrary().lookup(z);
  if (!hit || hit.country !== 'US' || !Number.isFinite(hit.latitude) || !Number.isFinite(hit.longitude)) return null;
  return { zip: z, lat: hit.latitude, lng: hit.longitude, city: hit.city, state: hit.state };
}
