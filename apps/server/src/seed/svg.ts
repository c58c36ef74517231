/**
 * Product images without network access or binary assets: a deterministic SVG per product with a
 * gradient by kind and strain type, a line icon for the kind, the product's initials and name.
 * The image pipeline rasterises it to the spec's sizes later (600 × 600 suits them all).
 */
import type { ProductKind } from './data/merch.ts';
import { createRng } from './prng.ts';
import { initials } from './text.ts';

export type ImageKind = ProductKind | 'kit';

export interface ImageSpec {
  sku: string;
  name: string;
  kind: ImageKind;
  strainType: string | null;
  /** Small caption under the name (brand). */
  caption: string;
}

const STRAIN_PALETTE: Readonly<Record<string, [string, string]>> = {
  Indica: ['#3b0764', '#7c3aed'],
  Sativa: ['#7c2d12', '#f59e0b'],
  Hybrid: ['#14532d', '#22c55e'],
  CBD: ['#134e4a', '#2dd4bf'],
};

const KIND_PALETTE: Readonly<Record<ImageKind, [string, string]>> = {
  flower: ['#14532d', '#22c55e'],
  preroll: ['#365314', '#a3e635'],
  vape: ['#1e3a8a', '#60a5fa'],
  concentrate: ['#78350f', '#fbbf24'],
  edible: ['#831843', '#f472b6'],
  tincture: ['#312e81', '#818cf8'],
  topical: ['#064e3b', '#6ee7b7'],
  accessory: ['#111827', '#6b7280'],
  kit: ['#7c2d12', '#fb923c'],
};

/** Seven leaflets fanning up from the stem base at (0, 40). */
const leaf = [-80, -52, -25, 0, 25, 52, 80]
  .map((angle, i) => {
    const len = [62, 88, 108, 122, 108, 88, 62][i];
    return `<ellipse cx="0" cy="${-len / 2}" rx="${Math.round(len / 5.5)}" ry="${len / 2}" transform="translate(0 40) rotate(${angle})"/>`;
  })
  .join('');

/** Line icons centred on (0, 0), about 160 px tall. */
const ICONS: Readonly<Record<ImageKind, string>> = {
  flower: `${leaf}<path d="M0 40v55"/>`,
  preroll: '<path d="M-22 -80h44l-14 150h-16z"/><path d="M-20 -50h40M-17 -20h34"/><path d="M-8 70v12h16v-12"/>',
  vape: '<rect x="-24" y="-50" width="48" height="130" rx="10"/><path d="M-12 -50v-30h24v30"/><path d="M-24 10h48"/>',
  concentrate:
    '<rect x="-60" y="-30" width="120" height="90" rx="16"/><rect x="-66" y="-60" width="132" height="30" rx="8"/>',
  edible:
    '<circle cx="0" cy="10" r="55"/><circle cx="-42" cy="-42" r="20"/><circle cx="42" cy="-42" r="20"/><path d="M-20 25q20 18 40 0"/>',
  tincture:
    '<rect x="-40" y="-10" width="80" height="95" rx="12"/><path d="M-14 -10v-30h28v30"/><circle cx="0" cy="-62" r="22"/>',
  topical:
    '<rect x="-34" y="-50" width="68" height="120" rx="18"/><rect x="-22" y="-80" width="44" height="30" rx="6"/><path d="M-34 0h68"/>',
  accessory:
    '<circle r="70"/><circle r="38"/><path d="M0 -70v-14M0 70v14M-70 0h-14M70 0h14M-50 -50l-10 -10M50 50l10 10M-50 50l-10 10M50 -50l10 -10"/>',
  kit: '<rect x="-70" y="-30" width="140" height="100" rx="8"/><rect x="-80" y="-60" width="160" height="30" rx="6"/><path d="M0 -60v130"/><path d="M0 -60c-30 -40 -60 -10 -30 0M0 -60c30 -40 60 -10 30 0"/>',
};

export function escapeXml(text: string): string {
  return text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string,
  );
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

export function productSvg(spec: ImageSpec): string {
  const rng = createRng('image', spec.sku);
  const strainPalette = spec.strainType ? STRAIN_PALETTE[spec.strainType] : undefined;
  const [dark, light] =
    (spec.kind === 'flower' || spec.kind === 'preroll') && strainPalette ? strainPalette : KIND_PALETTE[spec.kind];
  const bubbles = Array.from({ length: 6 }, () => {
    const r = rng.int(30, 140);
    return `<circle cx="${rng.int(0, 600)}" cy="${rng.int(0, 600)}" r="${r}" fill="#fff" fill-opacity="${rng.float(0.04, 0.12, 2)}"/>`;
  }).join('');
  const angle = rng.int(0, 90);
  const font = 'font-family="\'Helvetica Neue\', Arial, sans-serif"';
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 600 600" role="img" aria-label="${escapeXml(spec.name)}">`,
    `<defs><linearGradient id="bg" gradientTransform="rotate(${angle} 0.5 0.5)"><stop offset="0" stop-color="${dark}"/><stop offset="1" stop-color="${light}"/></linearGradient></defs>`,
    '<rect width="600" height="600" fill="url(#bg)"/>',
    bubbles,
    `<g transform="translate(300 200)" fill="none" stroke="#fff" stroke-opacity="0.92" stroke-width="8" stroke-linecap="round" stroke-linejoin="round">${ICONS[spec.kind]}</g>`,
    `<text x="300" y="405" ${font} font-size="104" font-weight="700" fill="#fff" text-anchor="middle">${escapeXml(initials(spec.name))}</text>`,
    `<text x="300" y="480" ${font} font-size="32" font-weight="600" fill="#fff" text-anchor="middle">${escapeXml(truncate(spec.name, 30))}</text>`,
    `<text x="300" y="530" ${font} font-size="22" fill="#fff" fill-opacity="0.85" text-anchor="middle" letter-spacing="3">${escapeXml(truncate(spec.caption.toUpperCase(), 36))}</text>`,
    '</svg>',
  ].join('\n');
}
