import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { BundleOption, LinkedProduct, ProductLink } from './product.ts';
import { CART_COPY } from './cart/messages.ts';
import { bundleChoiceProblem, bundleMembers, bundlePrice, defaultBundleChoice, isSingleChoiceOption, productPrice } from './pricing.ts';
import { OUT_OF_STOCK, member, product } from './test-fixtures.ts';
import { unitPrice } from './unit-price.ts';

const now = new Date('2026-11-20T12:00:00Z');

const link = (m: LinkedProduct, extra: Partial<ProductLink> = {}): ProductLink => ({
  id: m.id * 10,
  link_type: 'bundle',
  linked_product_sku: m.sku,
  linked_product_type: m.type_id,
  qty: 1,
  position: 0,
  is_default: false,
  product: m,
  ...extra,
});

const option = (option_id: number, links: ProductLink[], extra: Partial<BundleOption> = {}): BundleOption => ({
  option_id,
  title: `Option ${option_id}`,
  type: 'radio',
  required: true,
  position: option_id,
  product_links: links,
  ...extra,
});

// The demo "Night In" bundle's shape: radio flower, select edible, optional checkbox extras.
const options: BundleOption[] = [
  option(1, [link(member({ id: 1, price: 3800 }), { is_default: true }), link(member({ id: 2, price: 3500 }), { position: 1 })]),
  option(2, [link(member({ id: 3, price: 2200 }), { is_default: true }), link(member({ id: 4, price: 2000, special_price: 1500 }), { position: 1 })], { type: 'select' }),
  option(
    3,
    [
      link(member({ id: 5, price: 499 }), { is_default: true, qty: 2 }),
      link(member({ id: 6, price: 3000 }), { position: 1 }),
      link(member({ id: 7, price: 100, stock: OUT_OF_STOCK }), { position: 2 }),
      link(member({ id: 8, price: 100, status: 2 }), { position: 3 }),
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
