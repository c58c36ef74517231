import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { percentOf } from './money.ts';
import type { CustomOption } from './product.ts';
import { customOptionsPrice, productPrice, qtyDiscountPrice } from './pricing.ts';
import { unitPrice } from './unit-price.ts';
import { IN_STOCK, OUT_OF_STOCK, bundleOption, child, flower, member, product, productLink } from '../test-support/test-fixtures.ts';

const now = new Date('2026-11-20T12:00:00Z');


describe('productPrice: simple (spec §4, §5)', () => {
  it('is the own price, the special only inside its window', () => {
    expect(productPrice(product({ price: 2500 }), now)).toEqual({ price: 2500, final_price: 2500, from: false, sale: false });
    const special = product({ price: 2500, special_price: 2000, special_from_date: '2026-11-01', special_to_date: '2026-11-30' });
    expect(productPrice(special, now)).toEqual({ price: 2500, final_price: 2000, from: false, sale: true });
    expect(productPrice(special, new Date('2026-12-01T00:00:00Z')).final_price).toBe(2500);
  });
  it('takes the customer group tier price at qty 1 when lower', () => {
    const p = product({
      price: 2500,
      special_price: 2200,
      tier_prices: [
        { customer_group_id: 3, qty: 1, price: 2100 },
        { customer_group_id: 3, qty: 5, price: 1500 }, // a cart quantity, not a card price
        { customer_group_id: 4, qty: 1, price: 1000 },
      ],
    });
    expect(productPrice(p, now).final_price).toBe(2200);
    expect(productPrice(p, now, 3)).toEqual({ price: 2500, final_price: 2100, from: false, sale: true });
    expect(productPrice(p, now, 4).final_price).toBe(1000);
  });
  it('treats virtual and downloadable alike', () => {
    expect(productPrice(product({ type_id: 'virtual', price: 999 }), now).final_price).toBe(999);
    expect(productPrice(product({ type_id: 'downloadable', price: 1 }), now).price).toBe(1);
  });
});

describe('productPrice: configurable', () => {
  it('is the cheapest available child by final price, shown as "from"', () => {
    const p = flower([
      child({ id: 1, size: 91, price: 1500, stock: OUT_OF_STOCK }),
      child({ id: 2, size: 92, price: 4000, special_price: 3500 }),
      child({ id: 3, size: 93, price: 3600 }),
      child({ id: 4, size: 94, price: 100, status: 2 }),
    ]);
    expect(productPrice(p, now)).toEqual({ price: 4000, final_price: 3500, from: true, sale: true });
  });
  it('is not "from" when every available child costs the same', () => {
    const p = flower([child({ id: 1, size: 91, price: 1500 }), child({ id: 2, size: 92, price: 1500 })]);
    expect(productPrice(p, now).from).toBe(false);
    expect(productPrice(flower([child({ id: 1, price: 800 })]), now).from).toBe(false);
  });
  it('falls back to the parent price when no child is available', () => {
    const p = flower([child({ id: 1, price: 800, status: 2 })], { price: 1200 });
    expect(productPrice(p, now)).toEqual({ price: 1200, final_price: 1200, from: false, sale: false });
  });
});

describe('productPrice: grouped and bundle', () => {
  it('grouped starts at 0 and sums available associated members at qty 1', () => {
    const p = product({
      type_id: 'grouped',
      price: 99999,
      product_links: [
        productLink(member({ id: 1, price: 1000 }), { qty: 3 }), // qty ignored: grouped counts 1 each
        productLink(member({ id: 2, price: 250, special_price: 200 })),
        productLink(member({ id: 3, price: 700, status: 2 })),
        productLink(member({ id: 4, price: 700, stock: OUT_OF_STOCK })),
        productLink(member({ id: 5, price: 500 }), { link_type: 'related' }),
        { ...productLink(member({ id: 6 })), product: undefined },
      ],
    });
    expect(productPrice(p, now)).toEqual({ price: 1250, final_price: 1200, from: false, sale: true });
    expect(productPrice(product({ type_id: 'grouped', price: 500 }), now)).toEqual({ price: 0, final_price: 0, from: false, sale: false });
  });

  it('bundle sums each option’s default link × qty, the first link when none is default', () => {
    const p = product({
      type_id: 'bundle',
      bundle_options: [
        bundleOption(1, [
          productLink(member({ id: 1, price: 1000 }), { position: 2 }),
          productLink(member({ id: 2, price: 1500 }), { position: 1, qty: 2 }),
        ]),
        bundleOption(2, [
          productLink(member({ id: 3, price: 300 }), { position: 1 }),
          productLink(member({ id: 4, price: 333 }), { position: 2, is_default: true, qty: 3 }),
        ]),
        bundleOption(3, [productLink(member({ id: 5, price: 400 }), { qty: 0 })]), // qty 0 → default 1
      ],
    });
    expect(productPrice(p, now)).toEqual({ price: 1500 * 2 + 333 * 3 + 400, final_price: 4399, from: false, sale: false });
  });

  it('bundle skips unavailable selections for the next available one', () => {
    const p = product({
      type_id: 'bundle',
      bundle_options: [
        bundleOption(1, [
          productLink(member({ id: 1, price: 1000, stock: OUT_OF_STOCK }), { is_default: true }),
          productLink(member({ id: 2, price: 1200 }), { position: 1 }),
        ]),
      ],
    });
    expect(productPrice(p, now).price).toBe(1200);
  });

  it('rounds each line to the cent before summing (fractional qty)', () => {
    const p = product({ type_id: 'bundle', bundle_options: [bundleOption(1, [productLink(member({ id: 1, price: 333 }), { qty: 0.5 })])] });
    expect(productPrice(p, now).price).toBe(167);
  });
});

describe('productPrice properties', () => {
  const priceFields = fc.record({
    price: fc.nat(200_000),
    special_price: fc.option(fc.nat(200_000)),
    special_from_date: fc.option(fc.constantFrom('2026-01-01', '2026-11-21', '2026-11-20T12:00:01Z')),
    special_to_date: fc.option(fc.constantFrom('2026-11-19', '2026-11-20', '2027-01-01')),
    tier_prices: fc.array(fc.record({ customer_group_id: fc.nat(3), qty: fc.constantFrom(0, 1, 2), price: fc.nat(200_000) }), { maxLength: 3 }),
    status: fc.constantFrom(0, 1, 2),
    in_stock: fc.boolean(),
  });
  type Fields = typeof priceFields extends fc.Arbitrary<infer T> ? T : never;
  const members = fc.array(priceFields, { maxLength: 6 });
  const asMember = ({ in_stock, ...f }: Fields, id: number) => member({ id, ...f, stock: in_stock ? IN_STOCK : OUT_OF_STOCK });
  const asChild = ({ in_stock, ...f }: Fields, id: number) =>
    child({ id, ...f, size: 91 + (id % 5), stock: in_stock ? IN_STOCK : OUT_OF_STOCK });

  it('final ≤ price, integer cents, never negative, for every type', () => {
    fc.assert(
      fc.property(priceFields, members, fc.nat(3), fc.constantFrom('simple', 'configurable', 'grouped', 'bundle'), (own, parts, group, type) => {
        const { in_stock: _, ...ownFields } = own;
        const p = product({
          ...ownFields,
          type_id: type,
          configurable_children: parts.map((f, i) => asChild(f, i + 1)),
          product_links: parts.map((f, i) => productLink(asMember(f, i + 1))),
          bundle_options: parts.map((f, i) => bundleOption(i + 1, [productLink(asMember(f, i + 1), { qty: (i % 3) + 1 })])),
        });
        const r = productPrice(p, now, group);
        return r.final_price <= r.price && r.final_price >= 0 && Number.isInteger(r.price) && Number.isInteger(r.final_price);
      }),
    );
  });

  it('grouped equals the exact sum of its available members’ unit prices', () => {
    fc.assert(
      fc.property(members, fc.nat(3), (parts, group) => {
        const ms = parts.map((f, i) => asMember(f, i + 1));
        const p = product({ type_id: 'grouped', product_links: ms.map((m) => productLink(m)) });
        const available = ms.filter((m) => m.status === 1 && m.stock.is_in_stock).map((m) => unitPrice(m, now, group));
        const r = productPrice(p, now, group);
        return (
          r.price === available.reduce((s, u) => s + u.price, 0) &&
          r.final_price === available.reduce((s, u) => s + u.final_price, 0)
        );
      }),
    );
  });
});

describe('customOptionsPrice (spec §4)', () => {
  const options: CustomOption[] = [
    {
      option_id: 1,
      title: 'Grinder',
      type: 'drop_down',
      is_require: false,
      position: 0,
      values: [
        { option_type_id: 11, title: 'Metal', price_type: 'fixed', price: 500, position: 0 },
        { option_type_id: 12, title: 'Gift wrap', price_type: 'percent', price: 12.5, position: 1 },
      ],
    },
    {
      option_id: 2,
      title: 'Engraving',
      type: 'checkbox',
      is_require: false,
      position: 1,
      values: [
        { option_type_id: 0, title: 'None', price_type: 'fixed', price: 900, position: 0 },
        { option_type_id: 21, title: 'Rebate', price_type: 'fixed', price: -5000, position: 1 },
      ],
    },
  ];
  it('adds fixed add-ons as is and percent add-ons of the product price, to the cent', () => {
    expect(customOptionsPrice(1999, options, [{ option_id: 1, option_type_id: 11 }])).toBe(2499);
    expect(customOptionsPrice(1999, options, [{ option_id: 1, option_type_id: 12 }])).toBe(1999 + 250); // 249.875 → 250
    expect(customOptionsPrice(1999, options, [
      { option_id: 1, option_type_id: 11 },
      { option_id: 1, option_type_id: 12 },
    ])).toBe(2749);
  });
  it('ignores option_type_id 0 or below and unknown selections', () => {
    expect(customOptionsPrice(1000, options, [{ option_id: 2, option_type_id: 0 }])).toBe(1000);
    expect(customOptionsPrice(1000, options, [{ option_id: 2, option_type_id: -1 }])).toBe(1000);
    expect(customOptionsPrice(1000, options, [{ option_id: 9, option_type_id: 11 }])).toBe(1000);
    expect(customOptionsPrice(1000, options, [])).toBe(1000);
  });
  it('never goes below zero', () => {
    expect(customOptionsPrice(1000, options, [{ option_id: 2, option_type_id: 21 }])).toBe(0);
  });
  it('is the exact sum of the base and each counted add-on', () => {
    fc.assert(
      fc.property(
        fc.nat(500_000),
        fc.array(fc.record({ fixed: fc.boolean(), price: fc.integer({ min: 0, max: 50_000 }), pct: fc.integer({ min: 0, max: 10_000 }) }), { maxLength: 5 }),
        (base, addOns) => {
          const opts: CustomOption[] = addOns.map((a, i) => ({
            option_id: i + 1,
            title: '',
            type: 'radio',
            is_require: false,
            position: i,
            values: [{ option_type_id: i + 1, title: '', price_type: a.fixed ? 'fixed' : 'percent', price: a.fixed ? a.price : a.pct / 100, position: 0 }],
          }));
          const sel = addOns.map((_, i) => ({ option_id: i + 1, option_type_id: i + 1 }));
          const expected = addOns.reduce((s, a) => s + (a.fixed ? a.price : percentOf(base, a.pct / 100)), base);
          const got = customOptionsPrice(base, opts, sel);
          return got === expected && Number.isInteger(got) && got >= base;
        },
      ),
    );
  });
});

describe('qtyDiscountPrice (spec §9)', () => {
  const p = product({
    discounts: [
      { TYPE: 'qty_discount', qty_to_buy: 3.5, price: 3000 },
      { TYPE: 'qty_discount', qty_to_buy: 28, price: 18000 },
      { TYPE: 'qty_discount', qty_to_buy: 1, price: 900 },
    ],
  });
  it('matches the size’s weight in grams', () => {
    expect(qtyDiscountPrice(p, 92)).toBe(3000);
    expect(qtyDiscountPrice(p, 95)).toBe(18000);
    expect(qtyDiscountPrice(p, 93)).toBeNull();
  });
  it('uses weight 1 when the size is unknown or missing', () => {
    expect(qtyDiscountPrice(p, 91)).toBe(900);
    expect(qtyDiscountPrice(p, null)).toBe(900);
    expect(qtyDiscountPrice(p, 12345)).toBe(900);
    expect(qtyDiscountPrice(product(), 92)).toBeNull();
  });
});
