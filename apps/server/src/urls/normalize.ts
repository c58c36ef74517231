/**
 * The URL mapping's path normalisation (spec §7 URL mapping; VSF's `mapUrl` step 1): a leading
 * slash, no trailing slash, no query or hash. Percent-encoding is decoded per segment, and a
 * malformed escape keeps its segment as written instead of failing the lookup — VSF bug #2614
 * was exactly that: an encoded url_path intermittently resolved to page-not-found. Both the
 * decoded and the raw form are returned as candidates, so a url_path stored either way matches.
 */

/** Longest path the mapping looks at; anything longer cannot be a catalogue path. */
export const MAX_URL_LENGTH = 2048;

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    // A stray `%` (say `50%-off`): decode only the well-formed escapes.
    return segment.replace(/(%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

export interface NormalizedPath {
  /** `/menu/flower` (or `/` for the home page): what a route would match. */
  path: string;
  /** Lookup keys without the leading slash, decoded first, then as written: `menu/flower`. */
  keys: string[];
}

/**
 * Normalise a mapping request. Accepts a path (`/menu/flower/?a=1#x`), a path without a leading
 * slash, or an absolute URL (only its path is used). `storeCode`: a leading `/{storeCode}`
 * segment is the store prefix of spec §2, not part of the catalogue path, and is dropped.
 */
export function normalizeUrlPath(raw: string, storeCode?: string): NormalizedPath {
  let value = raw.trim().slice(0, MAX_URL_LENGTH);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    try {
      value = new URL(value).pathname;
    } catch {
      /* not a URL after all: treat it as a path */
    }
  }
  value = value.replace(/[?#].*$/s, '');
  let segments = value.split('/').filter((s) => s !== '');
  if (storeCode && segments[0]?.toLowerCase() === storeCode.toLowerCase()) segments = segments.slice(1);
  const decoded = segments.map(decodeSegment);
  const keys = [...new Set([decoded.join('/'), segments.join('/')])];
  return { path: `/${decoded.join('/')}`, keys };
}
