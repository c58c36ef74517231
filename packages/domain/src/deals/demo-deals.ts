/**
 * Demo deals for the demo stores (issue 28: "a few realistic deals of each kind"), as records the
 * schema accepts. The demo stores share one menu tree and brand list (apps/server/src/seed), so the
 * same records fit every store. Not wired to the database yet: the server helper will seed them.
 * Category ids: 3 Flower (11 Indica, 12 Sativa, 13 Hybrid), 4 Pre-Rolls, 5 Vapes, 6 Concentrates,
 * 7 Edibles (14 Gummies, 15 Chocolates), 8 Tinctures, 9 Topicals, 10 Accessories.
 */
import { dealSchema, type Deal, type DealInput } from './model.ts';

const stack = { deals: true, coupons: true, points: true };
const noCoupon = { deals: true, coupons: false, points: true };

export const DEMO_DEAL_INPUTS: readonly DealInput[] = [
  // Percent / amount off a set; a fixed price for a set.
  { id: 'wax-wednesday', title: 'Wax Wednesday: 20% off concentrates', status: 'active', kind: 'set_discount', set: { categories: [6] }, reward: { type: 'percent', percent: 20 }, schedule: { days: [3] }, stacking: stack },
  { id: 'verdant-labs-5-off', title: '$5 off every Verdant Labs vape', status: 'active', kind: 'set_discount', set: { brands: [102], kinds: ['vape'] }, reward: { type: 'amount', cents: 500 }, stacking: stack },
  { id: 'humboldt-eighths-35', title: 'Humboldt Heritage eighths $35', status: 'active', kind: 'set_discount', set: { brands: [106], sizes: [92] }, reward: { type: 'price', cents: 3500 }, stacking: noCoupon },
  { id: 'happy-hour-prerolls', title: 'Happy hour: 10% off pre-rolls, 4–6 pm', status: 'active', kind: 'set_discount', set: { categories: [4] }, reward: { type: 'percent', percent: 10 }, schedule: { hours: { from: '16:00', to: '18:00' } }, stacking: stack },
  { id: 'patient-tuesday', title: 'Patient Tuesday: 15% off for medical patients', status: 'active', kind: 'set_discount', set: { exclude: { categories: [10] } }, reward: { type: 'percent', percent: 15 }, eligibility: { licence: 'medical' }, schedule: { days: [2] }, stacking: { deals: false, coupons: false, points: true } },
  { id: 'birthday-month', title: 'Birthday month: 20% off one item', status: 'active', kind: 'set_discount', set: {}, reward: { type: 'percent', percent: 20 }, eligibility: { birthdayMonth: true }, limits: { perOrder: 1, perCustomer: { max: 1, window: { type: 'deal' } } }, stacking: stack },
  { id: 'early-bird-reserve', title: 'Early bird: 15% off Verdant Reserve (first 100 orders)', status: 'active', kind: 'set_discount', set: { brands: [101] }, reward: { type: 'percent', percent: 15 }, limits: { budget: 100 }, stacking: stack },
  // Buy X get Y across different products.
  { id: 'prerolls-2-get-1', title: 'Buy 2 pre-rolls, get 1 for $0.01', status: 'active', kind: 'buy_get', buy: { set: { categories: [4] }, qty: 2 }, get: { set: { categories: [4] }, qty: 1, reward: { type: 'price', cents: 1 } }, limits: { perOrder: 2 }, stacking: stack, noun: { one: 'pre-roll', other: 'pre-rolls' } },
  { id: 'cart-battery-5', title: 'Buy a vape cart, get a 510 battery for $5', status: 'active', kind: 'buy_get', buy: { set: { categories: [5], exclude: { tags: ['disposable'] } }, qty: 1 }, get: { set: { skus: ['AC-510-VAPE-BATTERY'] }, qty: 1, reward: { type: 'price', cents: 500 } }, rewardNoPricierThanBuy: false, limits: { perOrder: 1 }, stacking: stack },
  { id: 'edibles-bogo-half', title: 'Buy 1 edible, get 1 50% off', status: 'active', kind: 'buy_get', buy: { set: { categories: [7] }, qty: 1 }, get: { set: { categories: [7] }, qty: 1, reward: { type: 'percent', percent: 50 } }, limits: { perOrder: 2 }, stacking: stack, noun: { one: 'edible', other: 'edibles' } },
  // Mix and match.
  { id: 'any-3-eighths-90', title: 'Any 3 eighths for $90', status: 'active', kind: 'mix_match', set: { kinds: ['flower'], sizes: [92] }, qty: 3, priceCents: 9000, stacking: stack, noun: { one: 'eighth', other: 'eighths' } },
  { id: 'any-2-gummies-35', title: 'Any 2 gummies for $35', status: 'active', kind: 'mix_match', set: { categories: [14] }, qty: 2, priceCents: 3500, stacking: stack, noun: { one: 'gummy pack', other: 'gummy packs' } },
  // Bundles.
  { id: 'night-in-bundle', title: 'Night In: an indica eighth and a chocolate bar for $55', status: 'active', kind: 'bundle', name: 'Night In', items: [{ set: { categories: [11], sizes: [92] }, qty: 1 }, { set: { categories: [15] }, qty: 1 }], priceCents: 5500, stacking: stack },
  { id: 'vape-starter-bundle', title: 'Vape starter: a half-gram cart and a 510 battery for $45', status: 'active', kind: 'bundle', name: 'Vape starter', items: [{ set: { skus: ['VP-BLUEBERRY-DISTILLATE-CART-0-5-G', 'VP-PURPLE-PUNCH-DISTILLATE-CART-0-5-G', 'VP-CANNATONIC-DISTILLATE-CART-0-5-G'] }, qty: 1 }, { set: { skus: ['AC-510-VAPE-BATTERY'] }, qty: 1 }], priceCents: 4500, limits: { perOrder: 1 }, stacking: stack },
  // Thresholds.
  { id: 'spend-100-10-off', title: 'Spend $100, get 10% off your order', status: 'active', kind: 'threshold', condition: { type: 'spend', cents: 10000 }, reward: { target: 'order', reward: { type: 'percent', percent: 10 } }, stacking: noCoupon },
  { id: 'spend-75-preroll-1', title: 'Spend $75, get a pre-roll for $1', status: 'active', kind: 'threshold', condition: { type: 'spend', cents: 7500 }, reward: { target: 'set', set: { categories: [4], exclude: { tags: ['multipack'] } }, reward: { type: 'price', cents: 100 }, maxItems: 1 }, stacking: stack, noun: { one: 'pre-roll', other: 'pre-rolls' } },
  { id: 'ounce-20-off', title: 'Buy an ounce of flower, get $20 off your order', status: 'active', kind: 'threshold', condition: { type: 'weight', measure: 'flower_g', amount: 28 }, reward: { target: 'order', reward: { type: 'amount', cents: 2000 } }, stacking: stack },
  { id: 'edibles-5-15-off', title: 'Buy 5 edibles, get 15% off edibles', status: 'active', kind: 'threshold', condition: { type: 'items', count: 5, set: { categories: [7] } }, reward: { target: 'set', set: { categories: [7] }, reward: { type: 'percent', percent: 15 } }, stacking: stack, noun: { one: 'edible', other: 'edibles' } },
  { id: 'first-order-10', title: '$10 off your first order of $30 or more', status: 'active', kind: 'threshold', condition: { type: 'spend', cents: 3000 }, reward: { target: 'order', reward: { type: 'amount', cents: 1000 } }, eligibility: { firstOrder: true }, limits: { perCustomer: { max: 1, window: { type: 'deal' } } }, stacking: { deals: false, coupons: false, points: false } },
];

/** The demo deals, parsed (defaults filled). */
export const DEMO_DEALS: readonly Deal[] = DEMO_DEAL_INPUTS.map((d) => dealSchema.parse(d));
