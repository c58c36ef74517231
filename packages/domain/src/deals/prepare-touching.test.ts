/**
 * `PreparedDeals.touching` (the server's "deals some line of the cart takes part in", issue 28) says
 * what `dealTouchesProduct` says deal by deal, through the remembered set matches: the 200 synthetic
 * deals and the demo deals, on the demo menu and a 2,000-product store, over many carts, one
 * prepared list reused across them all (its memory of products must not leak from cart to cart).
 */
import { describe, expect, it } from 'vitest';
import { DEMO_DEALS } from './demo-deals.ts';
import { prepareDeals } from './prepare.ts';
import { dealTouchesProduct } from './shopper-view.ts';
import { DEMO_CATEGORY_PARENTS } from '../../test-support/deals/demo-products.fixture.ts';
import { DEMO_MENU, syntheticCart, syntheticDeals, syntheticStore } from '../../test-support/deals/synthetic.ts';

describe('deals a cart touches', () => {
  for (const [name, menu] of [['demo menu', DEMO_MENU], ['2,000-product store', syntheticStore(2000)]] as const) {
    it(`same as dealTouchesProduct for every deal, ${name}`, () => {
      const deals = [...syntheticDeals(200, 28, menu), ...DEMO_DEALS];
      const prepared = prepareDeals(deals);
      let touchedSomewhere = 0;
      for (let seed = 1; seed <= 150; seed++) {
        const products = syntheticCart(1 + (seed % 20), seed, menu).map((l) => l.product);
        const expected = new Set(deals.filter((d) => products.some((p) => dealTouchesProduct(d, p, DEMO_CATEGORY_PARENTS))).map((d) => d.id));
        const got = prepared.touching(products, DEMO_CATEGORY_PARENTS);
        expect([...got].sort()).toEqual([...expected].sort());
        touchedSomewhere += got.size;
      }
      expect(prepared.touching([], DEMO_CATEGORY_PARENTS).size).toBe(0);
      // Not a vacuous comparison: carts do meet deals.
      expect(touchedSomewhere).toBeGreaterThan(150);
    });
  }
});
