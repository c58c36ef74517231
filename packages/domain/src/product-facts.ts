/**
 * What a shopper needs to know about a product beyond price and size: the potency of infused
 * products per package and per piece, how the flower was grown and bred, and the "good to know"
 * tags sorted into what they are (effects, flavours, what it may help with, when). The data comes
 * from the catalogue's custom attributes (`thc_mg`, `cbd_mg`, `pieces`, `grow_type`, `lineage`,
 * `dominant_terpene`) and discovery tags; the card, the product page, the compare table and the
 * offline copy all read it through these functions.
 */
import type { InfusedPotency } from './catalog.ts';
import type { CustomAttribute } from './product.ts';

function attribute(attrs: readonly CustomAttribute[] | undefined, code: string): string | null {
  const found = attrs?.find((a) => a.attribute_code === code);
  if (found == null || found.value == null) return null;
  const value = String(found.value).trim();
  return value === '' ? null : value;
}

function positiveNumber(value: string | null): number | null {
  if (value == null) return null;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : null;
}

/** The potency of an infused product (edible, tincture, topical…); null when it states none. */
export function infusedPotency(product: { custom_attributes?: readonly CustomAttribute[] }): InfusedPotency | null {
  const thcMg = positiveNumber(attribute(product.custom_attributes, 'thc_mg'));
  const cbdMg = positiveNumber(attribute(product.custom_attributes, 'cbd_mg'));
  if (thcMg == null && cbdMg == null) return null;
  const pieces = positiveNumber(attribute(product.custom_attributes, 'pieces'));
  return { thcMg, cbdMg: cbdMg === 0 ? null : cbdMg, pieces: pieces != null && pieces >= 2 && Number.isInteger(pieces) ? pieces : null };
}

/** `10` → `10 mg`, `2.5` → `2.5 mg`, `3.333…` → `3.3 mg`. */
export function mgLabel(mg: number): string {
  return `${Number(mg.toFixed(1))} mg`;
}

/** "100 mg THC · 100 mg CBD" (a package) or per piece when divided; null when nothing is stated. */
export function potencyLine(p: InfusedPotency, per: 'package' | 'piece'): string | null {
  const divide = per === 'piece' ? p.pieces : 1;
  if (divide == null) return null;
  const parts: string[] = [];
  if (p.thcMg != null) parts.push(`${mgLabel(p.thcMg / divide)} THC`);
  if (p.cbdMg != null) parts.push(`${mgLabel(p.cbdMg / divide)} CBD`);
  return parts.length ? parts.join(' · ') : null;
}

/** Grow type, lineage and dominant terpene as label/value pairs ("unknown" lineage is left out). */
export function cultivationFacts(product: { custom_attributes?: readonly CustomAttribute[] }): [string, string][] {
  const out: [string, string][] = [];
  const grow = attribute(product.custom_attributes, 'grow_type');
  if (grow) out.push(['Grow type', grow]);
  const lineage = attribute(product.custom_attributes, 'lineage');
  if (lineage && lineage.toLowerCase() !== 'unknown') out.push(['Lineage', lineage]);
  const terpene = attribute(product.custom_attributes, 'dominant_terpene');
  if (terpene) out.push(['Dominant terpene', terpene.charAt(0).toUpperCase() + terpene.slice(1)]);
  return out;
}

export type TagGroupKey = 'effects' | 'helps' | 'times' | 'flavours' | 'other';

export const TAG_GROUP_TITLES: Readonly<Record<TagGroupKey, string>> = {
  effects: 'Effects',
  flavours: 'Flavours and aromas',
  helps: 'May help with',
  times: 'Best time',
  other: 'Also',
};

const GROUP_OF = new Map<string, TagGroupKey>();
const fill = (key: TagGroupKey, words: string[]) => words.forEach((w) => GROUP_OF.set(w, key));
// How shoppers describe feelings (Leafly's and the dispensaries' menus use the same words).
fill('effects', ['balanced', 'calm', 'clear-headed', 'cooling', 'creative', 'energetic', 'euphoric', 'focused', 'giggly', 'happy', 'hungry', 'long-lasting', 'relaxed', 'sleepy', 'social', 'soothing', 'talkative', 'tingly', 'uplifted', 'aroused']);
fill('helps', ['anxiety', 'appetite', 'creativity', 'depression', 'fatigue', 'focus', 'headaches', 'inflammation', 'insomnia', 'muscle spasms', 'nausea', 'pain', 'skin', 'sleep', 'stress']);
fill('times', ['daytime', 'evening', 'morning', 'night', 'nighttime', 'afternoon']);
fill('other', ['accessory', 'bath', 'bundle', 'gift', 'sampler', 'value']);

/**
 * Discovery tags in groups, in a fixed order; a tag no list names is a flavour or aroma (the open
 * vocabulary: fruit, spice, fuel…). Empty groups are left out; tags keep their order inside a group.
 */
export function groupDiscoveryTags(tags: readonly string[]): { key: TagGroupKey; title: string; tags: string[] }[] {
  const order: TagGroupKey[] = ['effects', 'flavours', 'helps', 'times', 'other'];
  const groups = new Map<TagGroupKey, string[]>(order.map((k) => [k, []]));
  for (const tag of tags) {
    const key = GROUP_OF.get(tag.trim().toLowerCase()) ?? 'flavours';
    const list = groups.get(key) as string[];
    if (!list.includes(tag)) list.push(tag);
  }
  return order.filter((k) => (groups.get(k) as string[]).length > 0).map((key) => ({ key, title: TAG_GROUP_TITLES[key], tags: groups.get(key) as string[] }));
}

/**
 * The card's short line: "100 mg THC · 10 mg per piece" (THC first; CBD when there is no THC, as
 * for hemp products; both when both are stated and the package is not divided).
 */
export function potencySummary(p: InfusedPotency): string | null {
  const main = p.thcMg != null && p.thcMg > 0 ? { mg: p.thcMg, what: 'THC' } : p.cbdMg != null ? { mg: p.cbdMg, what: 'CBD' } : null;
  if (!main) return null;
  if (p.pieces != null) return `${mgLabel(main.mg)} ${main.what} · ${mgLabel(main.mg / p.pieces)} per piece`;
  return potencyLine(p, 'package');
}
