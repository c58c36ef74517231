/**
 * One grouped and one bundle product per store, for the pricing rules of spec §4: a grouped
 * product sums its associated simples (qty 1 each); a bundle sums the default selection of each
 * option times its qty. Their members are simple products of their own, not visible individually.
 */
import { sizeWeightGrams, type ProductType } from '@verdant/domain';
import {
  CANNA_TYPE,
  TAX_CLASS_CANNABIS,
  TAX_CLASS_GENERAL,
  concentrateEquivalent,
  thcMgEquivalent,
} from './data/merch.ts';
import type { BundleOptionsTable } from '../db/schema.ts';
import { categoryId } from './categories.ts';
import { storePrice } from './pricing.ts';
import { createRng, type Rng } from './prng.ts';
import {
  addMedia,
  addPrice,
  addProduct,
  addStock,
  assignCategory,
  imagePath,
  type StoreContext,
} from './product-rows.ts';
import { paragraphs, shiftDays, slugify } from './text.ts';

interface Member {
  sku: string;
  name: string;
  listCents: number;
  cannaType: number;
  strainType?: string;
  size?: number;
  unitWeight?: number | null;
}

const flowerMember = (sku: string, name: string, strainType: string, listCents: number): Member => ({
  sku,
  name,
  listCents,
  cannaType: CANNA_TYPE.flower,
  strainType,
  size: 92,
});

export const GROUPED_SKU = 'KIT-PRE-ROLL-SAMPLER';
export const BUNDLE_SKU = 'BDL-NIGHT-IN';

const SAMPLER: Member[] = [
  {
    sku: 'KIT-SAMPLER-BLUE-DREAM',
    name: 'Blue Dream Sampler Pre-Roll 1 g',
    listCents: 1000,
    cannaType: CANNA_TYPE.preroll,
    strainType: 'Hybrid',
    unitWeight: 1,
  },
  {
    sku: 'KIT-SAMPLER-OG-KUSH',
    name: 'OG Kush Sampler Pre-Roll 1 g',
    listCents: 1100,
    cannaType: CANNA_TYPE.preroll,
    strainType: 'Hybrid',
    unitWeight: 1,
  },
  {
    sku: 'KIT-SAMPLER-SOUR-DIESEL',
    name: 'Sour Diesel Sampler Pre-Roll 1 g',
    listCents: 1000,
    cannaType: CANNA_TYPE.preroll,
    strainType: 'Sativa',
    unitWeight: 1,
  },
];

interface BundleOptionDef {
  title: string;
  type: BundleOptionsTable['type'];
  required: boolean;
  /** The first member with `isDefault` (or the first) is the default selection. */
  links: { member: Member; qty: number; isDefault: boolean }[];
}

const NIGHT_IN: BundleOptionDef[] = [
  {
    title: 'Flower',
    type: 'radio',
    required: true,
    links: [
      {
        member: flowerMember('BDL-NIGHT-IN-GDP-8TH', 'Granddaddy Purple 3.5 g (1/8 oz)', 'Indica', 3800),
        qty: 1,
        isDefault: true,
      },
      {
        member: flowerMember('BDL-NIGHT-IN-NL-8TH', 'Northern Lights 3.5 g (1/8 oz)', 'Indica', 3500),
        qty: 1,
        isDefault: false,
      },
    ],
  },
  {
    title: 'Edible',
    type: 'select',
    required: true,
    links: [
      {
        member: {
          sku: 'BDL-NIGHT-IN-SLEEP-GUMMIES',
          name: 'Sleep Gummies 100 mg',
          listCents: 2200,
          cannaType: CANNA_TYPE.infused,
          unitWeight: thcMgEquivalent(100),
        },
        qty: 1,
        isDefault: true,
      },
      {
        member: {
          sku: 'BDL-NIGHT-IN-DARK-CHOCOLATE',
          name: 'Dark Chocolate Bar 100 mg',
          listCents: 2000,
          cannaType: CANNA_TYPE.infused,
          unitWeight: thcMgEquivalent(100),
        },
        qty: 1,
        isDefault: false,
      },
    ],
  },
  {
    title: 'Extras',
    type: 'checkbox',
    required: false,
    links: [
      {
        member: {
          sku: 'BDL-NIGHT-IN-HEMP-WICK',
          name: 'Hemp Wick 10 ft',
          listCents: 499,
          cannaType: CANNA_TYPE.accessory,
        },
        qty: 2,
        isDefault: true,
      },
      {
        member: {
          sku: 'BDL-NIGHT-IN-VAPE-CART',
          name: 'Indica Distillate Cart 0.5 g',
          listCents: 3000,
          cannaType: CANNA_TYPE.concentrate,
          unitWeight: concentrateEquivalent(0.5),
        },
        qty: 1,
        isDefault: false,
      },
    ],
  },
];

function addKitParent(
  ctx: StoreContext,
  rng: Rng,
  sku: string,
  name: string,
  type: ProductType,
  category: Parameters<typeof categoryId>[0],
  description: string,
  createdAt: string,
): number {
  const image = imagePath(sku);
  const id = addProduct(ctx, {
    sku,
    name,
    slug: slugify(name),
    type_id: type,
    tax_class_id: TAX_CLASS_CANNABIS,
    license_type: 'both',
    brand_id: 113,
    canna_type: null,
    description,
    short_description: description.split('\n')[0],
    discovery_tags: 'bundle, gift, sampler',
    image,
    staff_pick: rng.chance(0.5),
    best_seller: rng.chance(0.3),
    is_new: rng.chance(0.3),
    created_at: createdAt,
    updated_at: createdAt,
  });
  assignCategory(ctx, id, categoryId(category));
  addMedia(ctx, id, image, name);
  addStock(ctx, id, { qty: 0, inStock: true, manage: false }, createdAt);
  return id;
}

function addMember(ctx: StoreContext, rng: Rng, m: Member, createdAt: string): number {
  const grams = m.size ? sizeWeightGrams(m.size) : null;
  const id = addProduct(ctx, {
    sku: m.sku,
    name: m.name,
    // The sku, not the name: a member may share its name with a product of the menu.
    slug: slugify(m.sku),
    type_id: 'simple',
    visibility: 1,
    tax_class_id: m.cannaType === CANNA_TYPE.accessory ? TAX_CLASS_GENERAL : TAX_CLASS_CANNABIS,
    license_type: 'both',
    brand_id: 113,
    canna_type: m.cannaType,
    size: m.size ?? null,
    uom: m.size ? 'g' : 'ea',
    unit_weight_grams_equivelent: m.unitWeight ?? null,
    strain_type: m.strainType ?? null,
    image: imagePath(m.sku),
    created_at: createdAt,
    updated_at: createdAt,
  });
  const units = rng.int(10, 40);
  addStock(ctx, id, { qty: grams ? units * grams : units, lowStock: 3 }, createdAt);
  addPrice(ctx, id, { price: storePrice(m.listCents, ctx.storeId, rng) });
  return id;
}

export function addKits(ctx: StoreContext): void {
  const rng = createRng('store', ctx.storeId, 'kits');
  const createdAt = shiftDays(ctx.reference, -rng.int(10, 60), -rng.int(1, 1439));

  const grouped = addKitParent(
    ctx,
    rng,
    GROUPED_SKU,
    'Pre-Roll Sampler',
    'grouped',
    'prerolls',
    paragraphs(
      'Three house pre-rolls, one of each: a hybrid, an indica-leaning hybrid and a sativa.',
      `Put together by the team at ${ctx.storeName}.`,
    ),
    createdAt,
  );
  SAMPLER.forEach((m, position) => {
    addMember(ctx, rng, m, createdAt);
    ctx.rows.product_links.push({
      id: ctx.ids.next('link'),
      product_id: grouped,
      link_type: 'associated',
      linked_product_sku: m.sku,
      linked_product_type: 'simple',
      qty: 1,
      position,
      is_default: 0,
      bundle_option_id: null,
    });
  });

  const bundle = addKitParent(
    ctx,
    rng,
    BUNDLE_SKU,
    'Night In Bundle',
    'bundle',
    'edibles',
    paragraphs(
      'Build your evening: pick an eighth, an edible and the extras you like.',
      `Assembled at ${ctx.storeName}.`,
    ),
    createdAt,
  );
  NIGHT_IN.forEach((option, position) => {
    const optionId = ctx.ids.next('bundle_option');
    ctx.rows.bundle_options.push({
      option_id: optionId,
      product_id: bundle,
      title: option.title,
      type: option.type,
      required: option.required ? 1 : 0,
      position,
    });
    option.links.forEach((link, linkPosition) => {
      addMember(ctx, rng, link.member, createdAt);
      ctx.rows.product_links.push({
        id: ctx.ids.next('link'),
        product_id: bundle,
        link_type: 'bundle',
        linked_product_sku: link.member.sku,
        linked_product_type: 'simple',
        qty: link.qty,
        position: linkPosition,
        is_default: link.isDefault ? 1 : 0,
        bundle_option_id: optionId,
      });
    });
  });
}
