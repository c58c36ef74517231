/**
 * Candidate products per kind, in a deterministic order: the master catalogue takes as many as it
 * needs from the front. Smoked and vaped products (flower, pre-rolls, vapes, concentrates) are
 * built around strains; infused products and accessories live in ./master-kinds-infused.ts.
 */
import { brandsFor, licence, type Candidate, type CandidateSource } from './candidate.ts';
import type { CategoryKey } from './categories.ts';
import {
  CANNA_TYPE,
  HOUSE_FLOWER_BRAND,
  HOUSE_VAPE_BRAND,
  TAX_CLASS_CANNABIS,
  concentrateEquivalent,
  type ProductKind,
} from './data/merch.ts';
import { STRAINS, type Strain, type StrainType } from './data/strains.ts';
import { INFUSED_TEMPLATES } from './master-kinds-infused.ts';
import type { Rng } from './prng.ts';
import { paragraphs } from './text.ts';

/** A few effects, flavours and a use, as menus tag them: `relaxed, happy, berry, sweet, stress`. */
function strainTags(rng: Rng, strain: Strain): string[] {
  return [...rng.sample(strain.effects, 2), ...rng.sample(strain.flavours, 2), rng.pick(strain.uses)];
}

const STRAIN_CATEGORY: Record<StrainType, CategoryKey> = {
  Indica: 'indica',
  Sativa: 'sativa',
  Hybrid: 'hybrid',
  CBD: 'flower',
};

const FLOWER_DESCRIPTORS = ['Smalls', 'Reserve', 'Sun-Grown', 'Private Stock', 'Popcorn'];
const GROW_TYPES = ['Indoor', 'Greenhouse', 'Sun-grown'];

function flowerCandidates(rng: Rng): Candidate[] {
  const [blueDream, ...others] = STRAINS;
  const firstPass = [blueDream, ...rng.shuffle(others)].map((s) => [s, ''] as const);
  const later = rng.shuffle(STRAINS.flatMap((s) => FLOWER_DESCRIPTORS.map((d) => [s, d] as const)));
  return [...firstPass, ...later].map(([strain, descriptor]) => {
    const brandId = rng.pick(brandsFor('flower'));
    const thc = rng.float(strain.thc[0], strain.thc[1], 1);
    const growType = rng.pick(GROW_TYPES);
    const effects = strain.effects.join(', ');
    const exact = strain === blueDream && descriptor === '';
    return {
      name: descriptor ? `${strain.name} ${descriptor}` : strain.name,
      category: STRAIN_CATEGORY[strain.type],
      brandId,
      strainType: strain.type,
      thcPercent: thc,
      cbdPercent: rng.float(strain.cbd[0], strain.cbd[1], 1),
      tags: strainTags(rng, strain),
      licenseType: exact ? 'both' : licence(rng, 0.07, 0.06),
      cannaType: CANNA_TYPE.flower,
      taxClassId: TAX_CLASS_CANNABIS,
      basePriceCents: strain.type === 'CBD' ? rng.int(8, 11) * 100 : rng.int(9, 15) * 100 + (thc > 25 ? 200 : 0),
      discountGroupId: brandId === HOUSE_FLOWER_BRAND ? 1 : null,
      shortDescription: `${strain.type} flower from {brand}: ${effects}.`,
      description: paragraphs(
        `${strain.name} is a ${strain.type.toLowerCase()} ${strain.type === 'CBD' ? 'strain bred for CBD' : 'strain'} (${strain.lineage}). Expect notes of ${strain.flavours.join(', ')}.`,
        `{brand} grows this batch ${growType.toLowerCase()}, hang-dries it and cures it slowly. Shoppers reach for it for ${strain.uses.join(' and ')}.`,
        'Sold in sealed jars from 1 g to a full ounce. Lab results are available in store.',
      ),
      attributes: { grow_type: growType, lineage: strain.lineage, dominant_terpene: strain.terpene },
    };
  });
}

interface FormTemplate {
  suffix: string;
  grams: number;
  /** Whole dollars, inclusive. */
  price: [number, number];
  thc?: [number, number];
  equivalent: (grams: number) => number;
  discountGroupId?: number;
  medicalShare?: number;
}

function strainFormCandidates(
  kind: ProductKind,
  category: CategoryKey,
  cannaType: number,
  forms: FormTemplate[],
): CandidateSource {
  return (rng) => {
    const combos = rng.shuffle(STRAINS.flatMap((strain) => forms.map((form) => [strain, form] as const)));
    return combos.map(([strain, form]) => {
      const brandId = rng.pick(brandsFor(kind));
      const thc = form.thc ? rng.float(form.thc[0], form.thc[1], 1) : rng.float(strain.thc[0], strain.thc[1], 1);
      const name = `${strain.name} ${form.suffix}`;
      return {
        name,
        category,
        brandId,
        strainType: strain.type,
        thcPercent: thc,
        cbdPercent: strain.type === 'CBD' ? rng.float(strain.cbd[0], strain.cbd[1], 1) : rng.float(0, 0.5, 1),
        tags: strainTags(rng, strain),
        licenseType: licence(rng, form.medicalShare ?? 0.05, 0.05),
        cannaType,
        taxClassId: TAX_CLASS_CANNABIS,
        unitWeight: form.equivalent(form.grams),
        basePriceCents: rng.int(form.price[0], form.price[1]) * 100,
        discountGroupId: form.discountGroupId ?? (kind === 'vape' && brandId === HOUSE_VAPE_BRAND ? 2 : null),
        shortDescription: `${form.suffix} of ${strain.name} (${strain.type}) by {brand}.`,
        description: paragraphs(
          `${name} by {brand}. ${strain.name} (${strain.lineage}) brings ${strain.flavours.join(', ')} notes and a ${strain.effects.join(', ')} feel.`,
          `Each unit holds ${form.grams} g. It counts ${form.equivalent(form.grams)} g toward your per-order limit.`,
        ),
        attributes: { lineage: strain.lineage, dominant_terpene: strain.terpene, net_weight: `${form.grams} g` },
      };
    });
  };
}

const flowerWeight = (g: number) => g;

export const KIND_TEMPLATES: Readonly<Record<ProductKind, CandidateSource>> = {
  flower: flowerCandidates,
  preroll: strainFormCandidates('preroll', 'prerolls', CANNA_TYPE.preroll, [
    { suffix: 'Pre-Roll 1 g', grams: 1, price: [9, 14], equivalent: flowerWeight },
    { suffix: 'Mini Pre-Rolls 5-Pack', grams: 2.5, price: [25, 38], equivalent: flowerWeight, discountGroupId: 4 },
    // Infused: 1 g of flower rolled with about 0.3 g of concentrate.
    { suffix: 'Infused Pre-Roll 1 g', grams: 1, price: [15, 24], thc: [30, 42], equivalent: () => 2.05 },
    { suffix: 'Pre-Roll 2-Pack', grams: 1.4, price: [14, 20], equivalent: flowerWeight, discountGroupId: 4 },
  ]),
  vape: strainFormCandidates('vape', 'vapes', CANNA_TYPE.concentrate, [
    { suffix: 'Live Resin Cart 1 g', grams: 1, price: [40, 55], thc: [72, 88], equivalent: concentrateEquivalent },
    { suffix: 'Distillate Cart 0.5 g', grams: 0.5, price: [25, 35], thc: [85, 93], equivalent: concentrateEquivalent },
    { suffix: 'All-in-One Vape 1 g', grams: 1, price: [45, 60], thc: [80, 90], equivalent: concentrateEquivalent },
    { suffix: 'Disposable Vape 0.3 g', grams: 0.3, price: [18, 25], thc: [80, 90], equivalent: concentrateEquivalent },
  ]),
  concentrate: strainFormCandidates('concentrate', 'concentrates', CANNA_TYPE.concentrate, [
    { suffix: 'Live Resin Badder 1 g', grams: 1, price: [35, 55], thc: [68, 82], equivalent: concentrateEquivalent },
    { suffix: 'Shatter 1 g', grams: 1, price: [25, 40], thc: [70, 85], equivalent: concentrateEquivalent },
    { suffix: 'Live Rosin 1 g', grams: 1, price: [50, 75], thc: [65, 80], equivalent: concentrateEquivalent },
    { suffix: 'THCa Diamonds 1 g', grams: 1, price: [45, 65], thc: [85, 95], equivalent: concentrateEquivalent },
    { suffix: 'Sugar Wax 1 g', grams: 1, price: [30, 45], thc: [70, 84], equivalent: concentrateEquivalent },
    // Full-extract cannabis oil is usually a patient product.
    {
      suffix: 'RSO Syringe 1 g',
      grams: 1,
      price: [30, 45],
      thc: [60, 75],
      equivalent: concentrateEquivalent,
      medicalShare: 0.8,
    },
  ]),
  ...INFUSED_TEMPLATES,
};
