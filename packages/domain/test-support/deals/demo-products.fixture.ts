/**
 * Real products of the demo catalogue (downtown, `npm run seed` with the default reference date):
 * sku, name, price, brand, kind, strain type, size and category as the seed generates them, and
 * what one unit counts toward purchase-limit measures. Used by the table tests (kinds.test.ts) and
 * the property tests (engine.property.test.ts).
 */
import type { DealCartLine, DealProductFacts, DealProductKind } from '../../src/deals/model.ts';

/** The demo menu tree (apps/server/src/seed/categories.ts): child → parent. */
export const DEMO_CATEGORY_PARENTS: Readonly<Record<number, number | null>> = {
  2: null,
  3: 2, 4: 2, 5: 2, 6: 2, 7: 2, 8: 2, 9: 2, 10: 2,
  11: 3, 12: 3, 13: 3,
  14: 7, 15: 7,
};
export const CAT = { flower: 3, prerolls: 4, vapes: 5, concentrates: 6, edibles: 7, tinctures: 8, topicals: 9, accessories: 10, indica: 11, sativa: 12, hybrid: 13, gummies: 14, chocolates: 15 } as const;
export const BRAND = { verdantReserve: 101, verdantLabs: 102, goldenState: 103, emeraldCoast: 104, sierraSun: 105, humboldt: 106, fogCity: 107, highDesert: 108, canopyKitchen: 109, sweetLeaf: 110, plantDoctor: 111, coastalCalm: 112, rollCo: 113, verdantGoods: 114 } as const;

export interface DemoDealProduct extends DealProductFacts {
  name: string;
  priceCents: number;
}

const SIZE_G: Record<number, number> = { 91: 1, 92: 3.5, 93: 7, 94: 14, 95: 28 };

function p(sku: string, name: string, priceCents: number, kind: DealProductKind, categoryId: number, brandId: number, strainType: string | null, size: number | null, flowerEq: number | null, tags: string[] = []): DemoDealProduct {
  const measures: DemoDealProduct['measures'] = {};
  if (kind === 'flower' && size) {
    measures.flower_g = SIZE_G[size];
    measures.flower_equivalent_g = SIZE_G[size];
  } else if (flowerEq != null) measures.flower_equivalent_g = flowerEq;
  return { sku, name, priceCents, kind, categoryIds: [categoryId], brandId, strainType, size, tags, measures };
}

export const DEMO_DEAL_PRODUCTS: readonly DemoDealProduct[] = [
  p('FL-BLUE-DREAM-8TH', 'Blue Dream 3.5 g (1/8 oz)', 5200, 'flower', CAT.hybrid, BRAND.sierraSun, 'Hybrid', 92, null, ['happy', 'daytime']),
  p('FL-WEDDING-CAKE-8TH', 'Wedding Cake 3.5 g (1/8 oz)', 5800, 'flower', CAT.indica, BRAND.emeraldCoast, 'Indica', 92, null),
  p('FL-ACDC-8TH', 'ACDC 3.5 g (1/8 oz)', 2900, 'flower', CAT.flower, BRAND.emeraldCoast, 'CBD', 92, null),
  p('FL-CHEMDAWG-8TH', 'Chemdawg 3.5 g (1/8 oz)', 3900, 'flower', CAT.hybrid, BRAND.humboldt, 'Hybrid', 92, null),
  p('FL-CHERRY-PIE-8TH', 'Cherry Pie 3.5 g (1/8 oz)', 2900, 'flower', CAT.hybrid, BRAND.verdantReserve, 'Hybrid', 92, null),
  p('FL-GREEN-CRACK-8TH', 'Green Crack 3.5 g (1/8 oz)', 4200, 'flower', CAT.sativa, BRAND.verdantReserve, 'Sativa', 92, null),
  p('FL-OG-KUSH-8TH', 'OG Kush 3.5 g (1/8 oz)', 4800, 'flower', CAT.hybrid, BRAND.verdantReserve, 'Hybrid', 92, null),
  p('FL-ZKITTLEZ-8TH', 'Zkittlez 3.5 g (1/8 oz)', 2900, 'flower', CAT.indica, BRAND.humboldt, 'Indica', 92, null),
  p('FL-BUBBA-KUSH-8TH', 'Bubba Kush 3.5 g (1/8 oz)', 4800, 'flower', CAT.indica, BRAND.emeraldCoast, 'Indica', 92, null),
  p('FL-BLUE-DREAM-1G', 'Blue Dream 1 g', 1600, 'flower', CAT.hybrid, BRAND.sierraSun, 'Hybrid', 91, null),
  p('FL-OG-KUSH-OZ', 'OG Kush 28 g (1 oz)', 29400, 'flower', CAT.hybrid, BRAND.verdantReserve, 'Hybrid', 95, null),
  p('PR-GREEN-CRACK-PRE-ROLL-1-G', 'Green Crack Pre-Roll 1 g', 1300, 'preroll', CAT.prerolls, BRAND.rollCo, 'Sativa', null, 1),
  p('PR-PURPLE-PUNCH-PRE-ROLL-1-G', 'Purple Punch Pre-Roll 1 g', 1200, 'preroll', CAT.prerolls, BRAND.sierraSun, 'Indica', null, 1),
  p('PR-WEDDING-CAKE-PRE-ROLL-1-G', 'Wedding Cake Pre-Roll 1 g', 1200, 'preroll', CAT.prerolls, BRAND.rollCo, 'Indica', null, 1),
  p('PR-APPLE-FRITTER-MINI-PRE-ROLLS-5-PACK', 'Apple Fritter Mini Pre-Rolls 5-Pack', 2800, 'preroll', CAT.prerolls, BRAND.sierraSun, 'Hybrid', null, 2.5),
  p('PR-BLUEBERRY-INFUSED-PRE-ROLL-1-G', 'Blueberry Infused Pre-Roll 1 g', 2500, 'preroll', CAT.prerolls, BRAND.sierraSun, 'Indica', null, 2.05),
  p('VP-HARLEQUIN-LIVE-RESIN-CART-1-G', 'Harlequin Live Resin Cart 1 g', 5900, 'vape', CAT.vapes, BRAND.verdantLabs, 'CBD', null, 3.5),
  p('VP-BLUEBERRY-DISTILLATE-CART-0-5-G', 'Blueberry Distillate Cart 0.5 g', 3400, 'vape', CAT.vapes, BRAND.highDesert, 'Indica', null, 1.75),
  p('VP-BLUE-DREAM-DISPOSABLE-VAPE-0-3-G', 'Blue Dream Disposable Vape 0.3 g', 2700, 'vape', CAT.vapes, BRAND.verdantLabs, 'Hybrid', null, 1.05),
  p('VP-MIMOSA-DISPOSABLE-VAPE-0-3-G', 'Mimosa Disposable Vape 0.3 g', 2000, 'vape', CAT.vapes, BRAND.fogCity, 'Sativa', null, 1.05),
  p('CN-SOUR-DIESEL-SHATTER-1-G', 'Sour Diesel Shatter 1 g', 3000, 'concentrate', CAT.concentrates, BRAND.highDesert, 'Sativa', null, 3.5),
  p('CN-JACK-HERER-LIVE-ROSIN-1-G', 'Jack Herer Live Rosin 1 g', 7500, 'concentrate', CAT.concentrates, BRAND.highDesert, 'Sativa', null, 3.5),
  p('CN-DO-SI-DOS-THCA-DIAMONDS-1-G', 'Do-Si-Dos THCa Diamonds 1 g', 5200, 'concentrate', CAT.concentrates, BRAND.verdantLabs, 'Indica', null, 3.5),
  p('ED-STRAWBERRY-GUMMIES-100-MG', 'Strawberry Gummies 100 mg', 1900, 'edible', CAT.gummies, BRAND.canopyKitchen, null, null, 3.5),
  p('ED-SLEEP-PEACH-GUMMIES-100-MG', 'Sleep Peach Gummies 100 mg', 2500, 'edible', CAT.gummies, BRAND.sweetLeaf, null, null, 3.5, ['sleep']),
  p('ED-DARK-CHOCOLATE-MINT-BAR-100-MG', 'Dark Chocolate Mint Bar 100 mg', 2100, 'edible', CAT.chocolates, BRAND.coastalCalm, null, null, 3.5),
  p('ED-SPARKLING-WATERMELON-SODA-10-MG', 'Sparkling Watermelon Soda 10 mg', 500, 'edible', CAT.edibles, BRAND.canopyKitchen, null, null, 0.35),
  p('TN-ORANGE-SLEEP-TINCTURE-500-MG', 'Orange Sleep Tincture 500 mg', 6000, 'tincture', CAT.tinctures, BRAND.plantDoctor, null, null, 14, ['sleep']),
  p('TP-ROSE-RELIEF-BALM-200-MG', 'Rose Relief Balm 200 mg', 4500, 'topical', CAT.topicals, BRAND.plantDoctor, null, null, 7),
  p('AC-510-VAPE-BATTERY', '510 Vape Battery', 1799, 'accessory', CAT.accessories, BRAND.rollCo, null, null, null),
  p('AC-KING-SIZE-ROLLING-PAPERS', 'King Size Rolling Papers', 499, 'accessory', CAT.accessories, BRAND.verdantGoods, null, null, null),
  p('AC-HUMIDITY-PACK-62', 'Humidity Pack 62%', 299, 'accessory', CAT.accessories, BRAND.rollCo, null, null, null),
];

export function demoProduct(sku: string): DemoDealProduct {
  const found = DEMO_DEAL_PRODUCTS.find((x) => x.sku === sku);
  if (!found) throw new Error(`no demo product ${sku}`);
  return found;
}

/** A cart line of a demo product at its menu price. */
export function demoLine(id: string, sku: string, qty: number, priceCents?: number): DealCartLine {
  const product = demoProduct(sku);
  return { id, product, unitPriceCents: priceCents ?? product.priceCents, qty };
}
