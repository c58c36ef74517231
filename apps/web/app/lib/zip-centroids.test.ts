import { describe, expect, it } from 'vitest';
import { knownZips, lookupZip, normalizeZip } from './zip-centroids.ts';

/** Haversine miles, as the server measures (apps/server/src/shipping/methods.ts). */
function miles(a: { lat: number; lng: number }, b: { lat: number; lng: number }) {
  const rad = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(rad(b.lat - a.lat) / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lng - a.lng) / 2) ** 2;
  return 2 * 3958.7613 * Math.asin(Math.sqrt(h));
}

const downtown = { lat: 38.5816, lng: -121.4944 };
const harbor = { lat: 37.7945, lng: -122.2766 };

describe('ZIP centroid table (demo cities)', () => {
  it('reads five-digit and ZIP+4 codes, nothing else', () => {
    expect(normalizeZip(' 95814 ')).toBe('95814');
    expect(normalizeZip('95814-1234')).toBe('95814');
    expect(normalizeZip('9581')).toBeNull();
    expect(normalizeZip('95814x')).toBeNull();
  });

  it('knows the demo stores’ own ZIPs, and not others', () => {
    expect(lookupZip('95814')).toMatchObject({ city: 'Sacramento' });
    expect(lookupZip('94607')).toMatchObject({ city: 'Oakland' });
    expect(lookupZip('10001')).toBeNull();
    expect(knownZips('Oakland').every((z) => z.startsWith('946'))).toBe(true);
    expect(knownZips('Sacramento').every((z) => z.startsWith('958'))).toBe(true);
  });

  it('puts each centroid in its city: within 12 miles of its store, Elk Grove beyond the 10-mile radius', () => {
    for (const zip of knownZips('Sacramento')) expect(miles(downtown, lookupZip(zip)!)).toBeLessThan(12);
    for (const zip of knownZips('Oakland')) expect(miles(harbor, lookupZip(zip)!)).toBeLessThan(12);
    expect(miles(downtown, lookupZip('95814')!)).toBeLessThan(1);
    expect(miles(downtown, lookupZip('95757')!)).toBeGreaterThan(10);
  });
});
