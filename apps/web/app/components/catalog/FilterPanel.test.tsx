/**
 * The filter panel's groups from the server's fragment cache (`pageFragments`) are the same bytes as
 * the panel React renders in full — for the panel and the drawer's id prefix, with and without
 * chosen filters, a search text and a sort, under a store-code prefix — and a change of any count,
 * label or chosen state renders anew.
 */
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, expect, it } from 'vitest';
import type { ActiveFilters } from '@verdant/domain';
import type { CatalogQuery } from '../../lib/catalog-query.ts';
import { pageFragments } from '../../lib/fragment-cache.ts';
import { filterGroups, type FilterGroup } from '../../lib/filter-view.ts';
import { FilterPanel } from './FilterPanel.tsx';

function renderPanel(groups: FilterGroup[], query: CatalogQuery, url: string, idPrefix: string, heading?: string): string {
  const router = createMemoryRouter(
    [{ path: '*', Component: () => <FilterPanel idPrefix={idPrefix} groups={groups} query={query} heading={heading} /> }],
    {
      initialEntries: [url],
    },
  );
  return renderToString(<RouterProvider router={router} />);
}

function threeRenders(render: () => string) {
  pageFragments.setRenderer(undefined);
  const full = render();
  pageFragments.setRenderer(renderToString);
  const first = render();
  pageFragments.flush();
  const hitsBefore = pageFragments.hits;
  const fromCache = render();
  const hits = pageFragments.hits - hitsBefore;
  pageFragments.setRenderer(undefined);
  return { full, first, fromCache, hits };
}

afterEach(() => {
  pageFragments.setRenderer(undefined);
  pageFragments.clear();
});

const facets = {
  size: [
    { value: '95', label: '28 g (1 oz)', count: 4 },
    { value: '92', label: '3.5 g (1/8 oz)', count: 9 },
    { value: '91', label: '1 g', count: 1 },
  ],
  sale: [{ value: '1', label: 'Yes', count: 2 }],
  price: [
    { value: '0-50', label: '', count: 12 },
    { value: '150-', label: '', count: 3 },
  ],
  brand_id: [
    { value: '3', label: 'Sierra Sun Farms', count: 5 },
    { value: '4', label: 'Tom & Jerry’s <Reserve>', count: 2 },
  ],
};

it('writes the filter groups byte for byte as React renders them in full', () => {
  const cases: { active: ActiveFilters; text: string; sort?: CatalogQuery['sort']; url: string }[] = [
    { active: {}, text: '', url: '/menu/flower' },
    { active: { size: ['92'], brand_id: ['4'] }, text: '', url: '/menu/flower?size=92&brand_id=4' },
    { active: { price: ['150-'] }, text: 'blue', sort: 'price_asc', url: '/eastside/menu?q=blue&sort=price_asc&price=150-' },
  ];
  let checked = 0;
  for (const c of cases) {
    const groups = filterGroups(facets, c.active, [], { currencyCode: 'USD', locale: 'en-US' });
    const query: CatalogQuery = { filters: c.active, text: c.text, sort: c.sort, page: 1 };
    for (const [idPrefix, heading] of [
      ['filters', 'Filters'],
      ['drawer', undefined],
    ] as const) {
      const { full, first, fromCache, hits } = threeRenders(() => renderPanel(groups, query, c.url, idPrefix, heading));
      expect(full).toContain(`id="${idPrefix}-size-92"`);
      expect(full).toContain('Tom &amp; Jerry’s &lt;Reserve&gt;');
      checked += full.split('checked=""').length - 1;
      expect(first, `${c.url} ${idPrefix}: first render`).toBe(full);
      expect(fromCache, `${c.url} ${idPrefix}: from the cache`).toBe(full);
      expect(hits).toBe(1);
    }
  }
  // The chosen filters are checked in the markup: 2 in the second case, 1 in the third, in both panels.
  expect(checked).toBe(6);
});

it('renders a changed count, label or chosen state anew', () => {
  const query: CatalogQuery = { filters: {}, text: '', page: 1 };
  const groups = filterGroups(facets, {});
  const { fromCache: before } = threeRenders(() => renderPanel(groups, query, '/menu', 'filters', 'Filters'));
  const changed: FilterGroup[][] = [
    groups.map((g, i) => (i === 0 ? { ...g, options: g.options.map((o, j) => (j === 0 ? { ...o, count: o.count + 1 } : o)) } : g)),
    groups.map((g, i) => (i === 0 ? { ...g, options: g.options.map((o, j) => (j === 0 ? { ...o, label: 'One gram' } : o)) } : g)),
    groups.map((g, i) => (i === 0 ? { ...g, options: g.options.map((o, j) => (j === 0 ? { ...o, checked: true } : o)) } : g)),
    groups.slice(1),
  ];
  for (const next of changed) {
    const { full, first, fromCache } = threeRenders(() => renderPanel(next, query, '/menu', 'filters', 'Filters'));
    expect(full).not.toBe(before);
    expect(first).toBe(full);
    expect(fromCache).toBe(full);
  }
});
