import { describe, expect, it } from 'vitest';
import { activeFilterChips, fallbackFilterLabel, filterGroups } from './filter-view.ts';

describe('filterGroups', () => {
  const facets = {
    size: [
      { value: '95', label: '28 g (1 oz)', count: 4 },
      { value: '92', label: '3.5 g (1/8 oz)', count: 9 },
      { value: '93', label: '7 g (1/4 oz)', count: 0 },
    ],
    sale: [{ value: '1', label: 'Yes', count: 2 }],
    brand_id: [{ value: '3', label: 'Sierra Sun Farms', count: 5 }],
  };

  it('keeps FILTER_KEYS order, hides empty options, sorts sizes by weight', () => {
    const groups = filterGroups(facets, {});
    expect(groups.map((g) => g.key)).toEqual(['size', 'sale', 'brand_id']);
    expect(groups[0]).toMatchObject({ title: 'Size', options: [{ value: '92', count: 9 }, { value: '95', count: 4 }] });
    expect(groups[1].options[0].label).toBe('On sale');
  });

  it('keeps a chosen value even when nothing matches it', () => {
    const groups = filterGroups(facets, { size: ['93'], price: ['150-'] });
    expect(groups.find((g) => g.key === 'size')!.options.find((o) => o.value === '93')).toMatchObject({ checked: true, count: 0 });
    expect(groups.find((g) => g.key === 'price')!.options).toEqual([{ value: '150-', label: '> $150', count: 0, checked: true }]);
    expect(activeFilterChips(groups)).toEqual([
      { key: 'size', value: '93', label: 'Size: 7 g (1/4 oz)' },
      { key: 'price', value: '150-', label: 'Price: > $150' },
    ]);
  });

  it('offers no filter that cannot change the list', () => {
    const list = {
      ...facets,
      brand_id: [{ value: '3', label: 'Sierra Sun Farms', count: 13 }],
      license_type: [
        { value: 'both', label: 'Recreational and medical', count: 11 },
        { value: 'recreational', label: 'Recreational', count: 2 },
      ],
    };
    // 13 products, all of one brand; the list is the shopper's licence's.
    const keys = filterGroups(list, {}, [], undefined, { total: 13, licenseScoped: true }).map((g) => g.key);
    expect(keys).toEqual(['size', 'sale']);
    // Without the licence scope the licence type narrows the list, so it is offered.
    expect(filterGroups(list, {}, [], undefined, { total: 13, licenseScoped: false }).map((g) => g.key)).toContain('license_type');
    // A chosen value keeps its group, so it can be unchosen.
    expect(filterGroups(list, { brand_id: ['3'] }, [], undefined, { total: 13, licenseScoped: true }).map((g) => g.key)).toContain('brand_id');
  });

  it('takes group titles from the attribute metadata when present', () => {
    const attrs = [{ attribute_code: 'brand_id', frontend_label: 'Brands' }] as unknown as Parameters<typeof filterGroups>[2];
    expect(filterGroups(facets, {}, attrs).find((g) => g.key === 'brand_id')?.title).toBe('Brands');
  });

  it('labels values no facet described', () => {
    expect(fallbackFilterLabel('size', '94')).toBe('14 g (1/2 oz)');
    expect(fallbackFilterLabel('license_type', 'medical')).toBe('Medical');
    expect(fallbackFilterLabel('price', '0-50')).toBe('< $50');
  });
});
