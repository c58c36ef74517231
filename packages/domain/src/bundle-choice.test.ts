import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { BundleOption } from './product.ts';
import { CART_COPY } from './cart/messages.ts';
import { bundleChoiceProblem, bundleMembers, bundlePrice, defaultBundleChoice, isSingleChoiceOption, productPrice } from './pricing.ts';
import { OUT_OF_STOCK, bundleOption, member, product, productLink } from '../test-support/test-fixtures.ts';
import { unitPrice } from './unit-price.ts';

const now = new Date('2026-11-20T12:00:00Z');


// The demo "Night In" bundle's shape: radio flower, select edible, optional checkbox extras.
const options: BundleOption[] = [
  bundleOption(1, [productLink(member({ id: 1, price: 3800 }), { is_default: true }), productLink(member({ id: 2, price: 3500 }), { position: 1 })]),
  bundleOption(2, [productLink(member({ id: 3, price: 2200 }), { is_default: true }), productLink(member({ id: 4, price: 2000, special_price: 1500 }), { position: 1 })], { type: 'select' }),
  bundleOption(
    3,
    [
      productLink(member({ id: 5, price: 499 }), { is_default: true, qty: 2 }),
      productLink(member({ id: 6, price: 3000 }), { position: 1 }),
      productLink(member({ id: 7, price: 100, stock: OUT_OF_STOCK }), { position: 2 }),
      productLink(member({ id: 8, price: 100, status: 2 }), { position: 3 }),
    ],
    { type: 'checkbox', required: false },
  ),
];

describe('bundle choice (spec §4 Configuring, §5 members)', () => {
  it('defaults to each option’s default available member, as the listing prices it', () => {
    expect(defaultBundleChoice(options)).toEqual({ 1: ['M-1'], 2: ['M-3'], 3: ['M-5'] });
    const p = product({ type_id: 'bundle', bundle_options: options });
    expect(bundlePrice(options, defaultBundleChoice(options), now)).toEqual(productPrice(p, now));
    expect(productPrice(p, now).final_price).toBe(3800 + 2200 + 499 * 2);
  });

  it('prices what is chosen: link qty, specials, several members of a checkbox option, none of an optional one', () => {
    expect(bundlePrice(options, { 1: ['M-2'], 2: ['M-4'], 3: ['M-5', 'M-6'] }, now)).toEqual({
      price: 3500 + 2000 + 998 + 3000,
      final_price: 3500 + 1500 + 998 + 3000,
      from: false,
      sale: true,
    });
    expect(bundlePrice(options, { 1: ['M-1'], 2: ['M-3'], 3: [] }, now).final_price).toBe(6000);
  });

  it('skips members that are disabled or out of stock, and skus of other options', () => {
    const members = bundleMembers(options, { 1: ['M-3'], 2: ['M-3', 'M-3'], 3: ['M-7', 'M-8', 'M-6'] });
    expect(members.map((m) => [m.option.option_id, m.link.linked_product_sku, m.qty])).toEqual([
      [2, 'M-3', 1],
      [3, 'M-6', 1],
    ]);
  });

  it('asks to configure when a required option is empty, a single choice has two, or a member is unavailable', () => {
    expect(bundleChoiceProblem(options, defaultBundleChoice(options))).toBeNull();
    expect(bundleChoiceProblem(options, { 1: ['M-1'], 2: ['M-3'] })).toBeNull();
    expect(bundleChoiceProblem(options, { 1: ['M-1'], 2: [] })).toBe(CART_COPY.configureOptions);
    expect(bundleChoiceProblem(options, { 1: ['M-1', 'M-2'], 2: ['M-3'] })).toBe(CART_COPY.configureOptions);
    expect(bundleChoiceProblem(options, { 1: ['M-1'], 2: ['M-3'], 3: ['M-7'] })).toBe(CART_COPY.configureOptions);
    expect(bundleChoiceProblem(options, { 1: ['M-3'], 2: ['M-3'] })).toBe(CART_COPY.configureOptions);
    expect(isSingleChoiceOption(options[1])).toBe(true);
    expect(isSingleChoiceOption(options[2])).toBe(false);
  });

  it('a bundle price is the exact sum of its chosen members’ rounded lines', () => {
    fc.assert(
      fc.property(fc.subarray(['M-5', 'M-6']), fc.constantFrom('M-1', 'M-2'), fc.constantFrom('M-3', 'M-4'), (extras, flower, edible) => {
        const choice = { 1: [flower], 2: [edible], 3: extras };
        const sum = bundleMembers(options, choice).reduce((s, m) => s + Math.round(unitPrice(m.link.product, now).final_price * m.qty), 0);
        expect(bundlePrice(options, choice, now).final_price).toBe(sum);
      }),
    );
  });
});
