/** Text helpers for names, slugs and skus of the demo catalogue. */

/** `Girl Scout Cookies #4 — 3.5 g` → `girl-scout-cookies-4-3-5-g` */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A sku from a prefix and a name: `FL`, `Blue Dream` → `FL-BLUE-DREAM` (at most 40 characters). */
export function skuFrom(prefix: string, name: string): string {
  const body = slugify(name)
    .toUpperCase()
    .slice(0, 40 - prefix.length - 1)
    .replace(/-+$/, '');
  return `${prefix}-${body}`;
}

/** Up to two initials for an image: `Granddaddy Purple` → `GP`, `OG Kush` → `OK`. */
export function initials(name: string): string {
  const words = name
    .replace(/[^A-Za-z0-9 ]+/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !/^\d/.test(w));
  const letters = words.slice(0, 2).map((w) => w[0].toUpperCase());
  return letters.join('') || '?';
}

/** Join paragraphs the way CMS content and descriptions are stored: blank-line separated plain text. */
export function paragraphs(...parts: string[]): string {
  return parts.filter(Boolean).join('\n\n');
}

/** A date `days` before/after a reference, as ISO text (negative = past). */
export function shiftDays(reference: Date, days: number, minutes = 0): string {
  return new Date(reference.getTime() + days * 86_400_000 + minutes * 60_000).toISOString();
}
