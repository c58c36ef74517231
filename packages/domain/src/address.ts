/**
 * A delivery address as staff and drivers read it (issue 26: the console showed only the city).
 * One formatter for every place that shows an order's address: the console's order page and queue,
 * and anything printed for a driver. It reads the shape orders store (`address`, `apt_ste`, `city`,
 * `zip`, optional `region`) and the older account shape (`street` — a string or lines —, `postcode`,
 * `name`), so no stored address loses a part.
 */

export interface AddressLines {
  /** Street and number, then the apartment / suite when there is one. */
  street: string[];
  /** `Sacramento, CA 95814` */
  locality: string;
}

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/** `2B` → `Apt 2B`; `Suite 200`, `#5`, `Unit 4` stay as written. */
function unitLabel(unit: string): string {
  return /^\d/.test(unit) ? `Apt ${unit}` : unit;
}

/** The address's lines, or null when it has nothing to show. Accepts a stored JSON string too. */
export function addressLines(value: unknown): AddressLines | null {
  if (value == null) return null;
  if (typeof value === 'string') {
    const s = value.trim();
    if (!s) return null;
    if (s.startsWith('{')) {
      try {
        return addressLines(JSON.parse(s));
      } catch {
        // Not JSON after all: a free-text address.
      }
    }
    return { street: [s], locality: '' };
  }
  if (typeof value !== 'object' || Array.isArray(value)) return null;
  const a = value as Record<string, unknown>;
  const streetParts = Array.isArray(a.street) ? a.street.map(text) : [text(a.address) || text(a.street)];
  const houseNumber = text(a.house_number);
  const first = [streetParts[0] ?? '', houseNumber].filter(Boolean).join(' ');
  const unit = text(a.apt_ste);
  const street = [first, ...streetParts.slice(1), unit ? unitLabel(unit) : ''].filter(Boolean);
  const region = text(a.region_code) || text(a.region);
  const zip = text(a.zip) || text(a.postcode);
  // `Sacramento, CA 95814`; without a state `Sacramento 95814`.
  const city = text(a.city);
  const tail = [region, zip].filter(Boolean).join(' ');
  const locality = city && tail ? `${city}${region ? ', ' : ' '}${tail}` : city || tail;
  if (street.length === 0 && !locality) return null;
  return { street, locality };
}

/** The whole address on one line: `900 J St, Apt 2B, Sacramento, CA 95814`; null when there is none. */
export function formatAddress(value: unknown): string | null {
  const lines = addressLines(value);
  if (!lines) return null;
  return [...lines.street, lines.locality].filter(Boolean).join(', ');
}

/**
 * A maps search for the address (opens the phone's maps app or the browser's map): no key, no
 * coordinates the browser could have made up — the address as the shopper typed it.
 */
export function mapLink(value: unknown): string | null {
  const lines = addressLines(value);
  if (!lines) return null;
  // The apartment does not help a map find the building.
  const query = [lines.street[0] ?? '', lines.locality].filter(Boolean).join(', ');
  if (!query) return null;
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}`;
}
