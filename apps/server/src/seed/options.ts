/** Configurable size options and the custom options (engraving, gift wrap) some accessories offer. */
import { SIZE_IDS, sizeLongLabel } from '@verdant/domain';
import { SIZE_ATTRIBUTE_ID } from './attributes.ts';
import type { StoreContext } from './product-rows.ts';

export function addSizeOptions(ctx: StoreContext, parentId: number): void {
  ctx.rows.product_configurable_options.push({
    product_id: parentId,
    attribute_id: SIZE_ATTRIBUTE_ID,
    attribute_code: 'size',
    label: 'Size',
    position: 0,
  });
  SIZE_IDS.forEach((size, position) =>
    ctx.rows.product_configurable_option_values.push({
      product_id: parentId,
      attribute_id: SIZE_ATTRIBUTE_ID,
      value_index: size,
      label: sizeLongLabel(size),
      position,
    }),
  );
}

/**
 * Two custom options: a free-text engraving (fixed add-on) and a gift-wrap choice whose values
 * mix a free value, a fixed add-on and a percent add-on, for the pricing rules of spec §4.
 */
export function addCustomOptions(ctx: StoreContext, productId: number): void {
  const engraving = ctx.ids.next('custom_option');
  ctx.rows.custom_options.push({
    option_id: engraving,
    product_id: productId,
    title: 'Engraving',
    type: 'field',
    is_require: 0,
    position: 1,
    price_type: 'fixed',
    price_cents: 500,
    price_percent: null,
    max_characters: 20,
  });
  const wrap = ctx.ids.next('custom_option');
  ctx.rows.custom_options.push({
    option_id: wrap,
    product_id: productId,
    title: 'Gift wrap',
    type: 'drop_down',
    is_require: 0,
    position: 2,
    price_type: null,
    price_cents: null,
    price_percent: null,
    max_characters: null,
  });
  const values = [
    { title: 'No wrap', price_type: 'fixed', price_cents: 0, price_percent: null },
    { title: 'Gift box', price_type: 'fixed', price_cents: 400, price_percent: null },
    { title: 'Premium wrap', price_type: 'percent', price_cents: null, price_percent: 10 },
  ] as const;
  values.forEach((v, position) =>
    ctx.rows.custom_option_values.push({
      option_type_id: ctx.ids.next('custom_option_value'),
      option_id: wrap,
      position,
      ...v,
    }),
  );
}
