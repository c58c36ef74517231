import { describe, expect, it } from 'vitest';
import type { CatalogAttribute, CatalogCategory } from '@verdant/domain';
import { InvalidQueryError } from '../errors.ts';
import type { CmsBlockDocument, TaxRuleDocument } from './documents.ts';
import { attributeQuery, categoryQuery, cmsQuery, taxRuleQuery } from './entity-queries.ts';
import { createAttributeIndex, createCategoryIndex, createCmsBlockIndex, createTaxRuleIndex } from './schemas.ts';

const category = (id: number, over: Partial<CatalogCategory>): CatalogCategory => ({
  id,
  parent_id: 2,
  parent_ids: [2],
  name: `Category ${id}`,
  slug: `c${id}`,
  url_key: `c${id}`,
  url_path: `menu/c${id}`,
  is_active: true,
  level: 2,
  position: id,
  path: `1/2/${id}`,
  product_count: 5,
  include_in_menu: true,
  children_count: 0,
  ...over,
});

const attribute = (attribute_id: number, attribute_code: string, over: Partial<CatalogAttribute> = {}): CatalogAttribute => ({
  attribute_id,
  attribute_code,
  frontend_label: attribute_code,
  frontend_input: 'select',
  is_user_defined: true,
  is_visible: true,
  is_comparable: false,
  is_filterable: true,
  position: attribute_id,
  options: [],
  ...over,
});

describe('category queries (spec §7)', () => {
  const idx = createCategoryIndex();
  idx.replaceAll([
    category(10, { position: 3, name: 'Flower' }),
    category(11, { position: 1, name: 'Vapes' }),
    category(12, { position: 2, is_active: false }),
    category(13, { position: 0, product_count: 0 }),
    category(14, { parent_id: 10, level: 3, position: 0, name: 'Indica Flower' }),
  ]);
  const ids = (q: ReturnType<typeof categoryQuery>) => idx.search(q).items.map((c) => c.id);

  it('children of a parent: active, with products, by position, up to 4000', () => {
    const q = categoryQuery({ parentId: 2 });
    expect(q.size).toBe(4000);
    expect(ids(q)).toEqual([11, 10]);
    expect(ids(categoryQuery({ parentId: 10 }))).toEqual([14]);
    expect(ids(categoryQuery({ level: 2, onlyActive: false, onlyWithProducts: false }))).toEqual([13, 11, 12, 10]);
    expect(ids(categoryQuery({ ids: [14, 10] }))).toEqual([14, 10]);
  });

  it('finds categories by name', () => {
    expect(idx.search({ text: 'flower' }).items.map((c) => c.id).sort()).toEqual([10, 14]);
  });
});

describe('attribute search (spec §7)', () => {
  const idx = createAttributeIndex();
  idx.replaceAll([attribute(1, 'brand_id'), attribute(2, 'size', { is_visible: false }), attribute(3, 'colour', { is_user_defined: false })]);
  const codes = (q: ReturnType<typeof attributeQuery>) => idx.search(q).items.map((a) => a.attribute_code);

  it('by code or by id, keyed by attribute_id, size 150', () => {
    expect(attributeQuery({ attributeCodes: ['size'] }).size).toBe(150);
    expect(codes(attributeQuery({ attributeCodes: ['size', 'brand_id', 'a.b'] }))).toEqual(['brand_id', 'size']);
    expect(codes(attributeQuery({ attributeIds: [3] }))).toEqual(['colour']);
    expect(idx.get(2)?.attribute_code).toBe('size');
  });

  it('optionally visible or user-defined only; needs codes or ids', () => {
    expect(codes(attributeQuery({ attributeIds: [1, 2, 3], onlyVisible: true }))).toEqual(['brand_id', 'colour']);
    expect(codes(attributeQuery({ attributeIds: [1, 2, 3], onlyUserDefined: true }))).toEqual(['brand_id', 'size']);
    expect(() => attributeQuery({})).toThrow(InvalidQueryError);
  });
});

describe('tax rules and CMS', () => {
  it('tax rules by product and customer tax class, priority order', () => {
    const rule = (id: number, priority: number, product: number[], customer: number[]): TaxRuleDocument => ({
      id,
      code: `rule-${id}`,
      priority,
      position: 0,
      product_tax_class_ids: product,
      customer_tax_class_ids: customer,
      rates: [{ id, code: 'CA', kind: 'sales', rate: 7.25, tax_country_id: 'US', region_name: 'CA', tax_region_id: 12, tax_postcode: null }],
    });
    const idx = createTaxRuleIndex();
    idx.replaceAll([rule(1, 2, [2], [3]), rule(2, 1, [2, 4], [3]), rule(3, 0, [4], [5])]);
    expect(idx.search(taxRuleQuery()).items.map((r) => r.id)).toEqual([3, 2, 1]);
    expect(idx.search(taxRuleQuery({ productTaxClassId: 2, customerTaxClassId: 3 })).items.map((r) => r.id)).toEqual([2, 1]);
  });

  it('CMS blocks by identifier, active only by default', () => {
    const block = (id: number, identifier: string, is_active = true): CmsBlockDocument => ({
      id,
      identifier,
      title: identifier,
      content: `About ${identifier}`,
      is_active,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
    });
    const idx = createCmsBlockIndex();
    idx.replaceAll([block(1, 'footer-links'), block(2, 'home-banner', false), block(3, 'age-gate')]);
    expect(cmsQuery().size).toBe(150);
    expect(idx.search(cmsQuery()).items.map((b) => b.identifier)).toEqual(['age-gate', 'footer-links']);
    expect(idx.search(cmsQuery({ identifiers: ['home-banner'] })).total).toBe(0);
    expect(idx.search(cmsQuery({ identifiers: ['home-banner'], onlyActive: false })).total).toBe(1);
  });
});
