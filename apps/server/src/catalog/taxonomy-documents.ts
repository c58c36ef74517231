/**
 * Categories and attributes as documents (spec §3 "Category", "Attribute"): flags as booleans,
 * attribute options parsed, and each category's ancestors (parent_ids) and child count derived
 * from the materialised path.
 */
import type { CatalogAttribute, CatalogCategory } from '@verdant/domain';
import type { AttributeOption, Row } from '../db/schema.ts';

export function toAttribute(row: Row<'attributes'>): CatalogAttribute {
  return {
    attribute_id: row.attribute_id,
    attribute_code: row.attribute_code,
    frontend_label: row.frontend_label,
    frontend_input: row.frontend_input,
    is_user_defined: row.is_user_defined === 1,
    is_visible: row.is_visible === 1,
    is_comparable: row.is_comparable === 1,
    is_filterable: row.is_filterable === 1,
    position: row.position,
    options: (JSON.parse(row.options) as AttributeOption[]).map((o) => ({ value: String(o.value), label: o.label })),
  };
}

/** `2/3/11` → parent_ids [2, 3]: the ancestors from the root down, without the category itself. */
export function toCategories(rows: readonly Row<'categories'>[]): CatalogCategory[] {
  const childCount = new Map<number, number>();
  for (const r of rows) if (r.parent_id != null) childCount.set(r.parent_id, (childCount.get(r.parent_id) ?? 0) + 1);
  return rows.map((r) => ({
    id: r.id,
    parent_id: r.parent_id,
    parent_ids: r.path.split('/').map(Number).slice(0, -1),
    name: r.name,
    slug: r.slug,
    url_key: r.url_key,
    url_path: r.url_path,
    is_active: r.is_active === 1,
    level: r.level,
    position: r.position,
    path: r.path,
    product_count: r.product_count,
    include_in_menu: r.include_in_menu === 1,
    children_count: childCount.get(r.id) ?? 0,
  }));
}
