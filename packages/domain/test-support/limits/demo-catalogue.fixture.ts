/**
 * Real products of the demo catalogue (downtown, `npm run seed`), with the fields purchase limits
 * read: canna_type, size, unit_weight_grams_equivelent and the menu attributes. One or more of each
 * kind the catalogue sells, including the bundle parts and sampler items whose menu rows carry no
 * net weight or potency (what the limits must derive, issue 26). Used by the table-driven tests
 * (src/limits/kinds.test.ts); the server's test (apps/server/src/limits/kinds.test.ts) reads the same products
 * from the seeded database and checks they still match.
 */
export interface DemoProduct {
  sku: string;
  name: string;
  canna_type: number | null;
  size: number | null;
  unit_weight_grams_equivelent: number | null;
  attrs: Record<string, string>;
}

const p = (
  sku: string,
  name: string,
  canna_type: number | null,
  size: number | null,
  unit_weight_grams_equivelent: number | null,
  attrs: Record<string, string> = {},
): DemoProduct => ({ sku, name, canna_type, size, unit_weight_grams_equivelent, attrs });

export const DEMO: readonly DemoProduct[] = [
  p('FL-BLUE-DREAM-1G', 'Blue Dream 1 g', 1, 91, null),
  p('FL-BLUE-DREAM-8TH', 'Blue Dream 3.5 g (1/8 oz)', 1, 92, null),
  p('FL-BLUE-DREAM-OZ', 'Blue Dream 28 g (1 oz)', 1, 95, null),
  p('PR-APPLE-FRITTER-MINI-PRE-ROLLS-5-PACK', 'Apple Fritter Mini Pre-Rolls 5-Pack', 2, null, 2.5, { net_weight: '2.5 g' }),
  p('PR-GRANDDADDY-PURPLE-PRE-ROLL-2-PACK', 'Granddaddy Purple Pre-Roll 2-Pack', 2, null, 1.4, { net_weight: '1.4 g' }),
  p('PR-BLUEBERRY-INFUSED-PRE-ROLL-1-G', 'Blueberry Infused Pre-Roll 1 g', 2, null, 2.05, { net_weight: '1 g' }),
  p('KIT-SAMPLER-BLUE-DREAM', 'Blue Dream Sampler Pre-Roll 1 g', 2, null, 1),
  p('CN-DO-SI-DOS-SUGAR-WAX-1-G', 'Do-Si-Dos Sugar Wax 1 g', 3, null, 3.5, { net_weight: '1 g' }),
  p('CN-SOUR-DIESEL-SHATTER-1-G', 'Sour Diesel Shatter 1 g', 3, null, 3.5, { net_weight: '1 g' }),
  p('CN-JACK-HERER-LIVE-ROSIN-1-G', 'Jack Herer Live Rosin 1 g', 3, null, 3.5, { net_weight: '1 g' }),
  p('VP-ICE-CREAM-CAKE-DISTILLATE-CART-0-5-G', 'Ice Cream Cake Distillate Cart 0.5 g', 3, null, 1.75, { net_weight: '0.5 g' }),
  p('VP-HARLEQUIN-LIVE-RESIN-CART-1-G', 'Harlequin Live Resin Cart 1 g', 3, null, 3.5, { net_weight: '1 g' }),
  p('VP-BLUE-DREAM-DISPOSABLE-VAPE-0-3-G', 'Blue Dream Disposable Vape 0.3 g', 3, null, 1.05, { net_weight: '0.3 g' }),
  p('BDL-NIGHT-IN-VAPE-CART', 'Indica Distillate Cart 0.5 g', 3, null, 1.75),
  p('ED-STRAWBERRY-GUMMIES-100-MG', 'Strawberry Gummies 100 mg', 5, null, 3.5, { thc_mg: '100', pieces: '10', cbd_mg: '0' }),
  p('ED-POMEGRANATE-GUMMIES-500-MG', 'Pomegranate Gummies 500 mg', 5, null, 17.5, { thc_mg: '500', pieces: '10', cbd_mg: '0' }),
  p('ED-SPARKLING-POMEGRANATE-SODA-10-MG', 'Sparkling Pomegranate Soda 10 mg', 5, null, 0.35, { thc_mg: '10', cbd_mg: '0' }),
  p('TN-UNFLAVORED-THC-TINCTURE-1000-MG', 'Unflavored THC Tincture 1000 mg', 5, null, 35, { thc_mg: '1000', cbd_mg: '0' }),
  p('TP-ROSE-RELIEF-BALM-200-MG', 'Rose Relief Balm 200 mg', 5, null, 7, { thc_mg: '200', cbd_mg: '0' }),
  p('BDL-NIGHT-IN-DARK-CHOCOLATE', 'Dark Chocolate Bar 100 mg', 5, null, 3.5),
  p('ED-CBD-GRAPE-GUMMIES-300-MG', 'CBD Grape Gummies 300 mg', 6, null, null, { thc_mg: '0', pieces: '30', cbd_mg: '300' }),
  p('AC-510-VAPE-BATTERY', '510 Vape Battery', 4, null, null),
];
