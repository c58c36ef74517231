/**
 * Issue 26: the browser's instant per-order check (and its spec "single order" message) applies only
 * where the store's limit model is the spec's per-order limit; a store on a per-day preset gets no
 * per-order figures, so the server's buckets alone judge its carts.
 */
import { checkTransactionLimit, parseStoresFile } from '@verdant/domain';
import { describe, expect, it } from 'vitest';
import demo from '../../../server/config/stores.demo.json' with { type: 'json' };
import { limitSettings } from './cart-view.ts';
import { toPublicStore } from './store-view.ts';

const harbor = parseStoresFile(demo).stores.find((s) => s.storeCode === 'harbor')!;
const options = (perOrderLimit: boolean) => ({ delivery: { zones: [] } as never, medicalMinimumAge: 21, perOrderLimit });
const jar = { size: 95, unit_weight_grams_equivelent: null, canna_type: 1, qty: 2 };

describe('purchaseLimits for the instant check', () => {
  it('a store on the spec’s per-order limit keeps its figures and the spec message', () => {
    const store = toPublicStore(harbor, null, options(true));
    expect(store.purchaseLimits).toEqual({ recreational: 28.5, medical: 226.8 });
    expect(checkTransactionLimit([jar], limitSettings(store.purchaseLimits), 'recreational').message).toBe(
      'Your cart contains 27.5 g more cannabis than can be in a single order. Please remove 27.5 g from your cart.',
    );
  });

  it('a store on a per-day preset gets none: the browser never says "single order" there', () => {
    const store = toPublicStore(harbor, null, options(false));
    expect(store.purchaseLimits).toEqual({});
    expect(checkTransactionLimit([jar], limitSettings(store.purchaseLimits), 'recreational')).toMatchObject({ over: false, message: null });
  });
});
