/**
 * Integration: product cards from the server's fragment cache (lib/fragment-cache.ts) are the same
 * bytes as cards React renders in full, for every card of the seeded demo catalogues (every store,
 * both databases, with and without a store path prefix, eager and lazy), and a changed card never
 * comes back stale.
 */
import { toProductCard, type ProductCard as ProductCardData } from '@verdant/domain';
import type { FastifyInstance } from 'fastify';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NOW, registry, seed, testApp, loadCatalogues } from '../../../../server/test-support/catalog/test-app.ts';
import { describeEachDatabase } from '../../../../server/test-support/databases.ts';
import { cardFragments, FragmentCache } from '../../lib/fragment-cache.ts';
import type { RootData } from '../../lib/root-data.ts';
import { ProductCard } from './ProductCard.tsx';

type Money = { currencyCode: string; locale: string };

/** A page of cards as the server renders it: inside React Router, with the root loader's data. */
function renderCards(cards: ProductCardData[], opts: { basePath: string; storeCode: string; money?: Money; eagerCount?: number }): string {
  const root = { basePath: opts.basePath, store: { storeCode: opts.storeCode } } as unknown as RootData;
  const router = createMemoryRouter(
    [
      {
        id: 'root',
        path: '*',
        Component: () => (
          <ul>
            {cards.map((p, i) => (
              <li key={p.sku}>
                <ProductCard product={p} eager={i < (opts.eagerCount ?? 0)} money={opts.money} />
              </li>
            ))}
          </ul>
        ),
      },
    ],
    { initialEntries: [`${opts.basePath}/menu`], hydrationData: { loaderData: { root } } },
  );
  return renderToString(<RouterProvider router={router} />);
}

afterEach(() => {
  cardFragments.setRenderer(undefined);
  cardFragments.clear();
});

describeEachDatabase('product cards from the fragment cache', (getDb) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    await seed(getDb());
    app = await testApp(getDb());
    await loadCatalogues(app);
  });
  afterAll(async () => app?.close());

  const cardsOf = (storeId: number) => [...app.catalog.catalog(storeId).allProducts()].map((p) => toProductCard(p, NOW));

  it('writes every seeded card byte for byte as React renders it in full', () => {
    // Each store twice: at its own host with the default money, and under its path prefix with
    // another currency and locale (the store's cards are the same either way; the markup is not).
    const variants: { prefixed: boolean; money?: Money }[] = [
      { prefixed: false },
      { prefixed: true, money: { currencyCode: 'CAD', locale: 'fr-CA' } },
    ];
    let cached = 0;
    for (const store of registry.stores) {
      const cards = cardsOf(store.storeId);
      expect(cards.length, store.storeCode).toBeGreaterThan(20);
      for (const { prefixed, money } of variants) {
        const basePath = prefixed ? `/${store.storeCode}` : '';
        const opts = { basePath, storeCode: store.storeCode, money, eagerCount: 4 };
        const full = renderCards(cards, opts);
        // Real cards: one article each, with its name link (under the prefix), save buttons and price.
        expect(full.split('<article class="card">').length - 1).toBe(cards.length);
        expect(full).toContain(`href="${basePath}/p/${cards[0].sku}/`);
        expect(full.split('aria-pressed="false"').length - 1).toBe(cards.length * 2);
        cardFragments.setRenderer(renderToString);
        const firstRender = renderCards(cards, opts);
        cardFragments.flush();
        const fromCache = renderCards(cards, opts);
        cardFragments.setRenderer(undefined);
        expect(firstRender, `${store.storeCode} ${basePath} ${money?.locale}: first render`).toBe(full);
        expect(fromCache, `${store.storeCode} ${basePath} ${money?.locale}: from the cache`).toBe(full);
        // Lazy cards whole; eager ones (the first four) their save buttons and body, two entries each.
        cached += cards.length - 4 + 4 * 2;
      }
    }
    // Every card came from the cache on the repeat render.
    expect(cardFragments.hits).toBe(cached);
  });

  it('renders a changed card (price, special, name) anew instead of serving the old markup', () => {
    const [card] = cardsOf(1).filter((c) => c.final_price === c.price && !c.sale);
    const opts = { basePath: '', storeCode: 'downtown' };
    cardFragments.setRenderer(renderToString);
    renderCards([card], opts);
    cardFragments.flush();
    const before = renderCards([card], opts);
    expect(cardFragments.hits).toBe(1);
    for (const changed of [
      { ...card, final_price: card.price - 100, sale: true },
      { ...card, name: `${card.name} (new batch)` },
      { ...card, updated_at: '2026-06-16T00:00:00.000Z', new: true },
      // Issue 30: a rating, and a rating that moved, are new cards.
      { ...card, rating: { average: 4.5, count: 12 } },
      { ...card, rating: { average: 4.6, count: 13 } },
    ]) {
      cardFragments.setRenderer(undefined);
      const full = renderCards([changed], opts);
      cardFragments.setRenderer(renderToString);
      expect(renderCards([changed], opts)).toBe(full);
      cardFragments.flush();
      expect(renderCards([changed], opts)).toBe(full);
      expect(full).not.toBe(before);
    }
  });

  it('an eager card keeps its image and badges rendered by React and a changed one renders anew', () => {
    const [card] = cardsOf(1).filter((c) => c.final_price === c.price && !c.sale);
    const opts = { basePath: '', storeCode: 'downtown', eagerCount: 1 };
    cardFragments.setRenderer(renderToString);
    renderCards([card], opts);
    cardFragments.flush();
    const before = renderCards([card], opts);
    expect(cardFragments.hits).toBe(2);
    expect(before).toContain('loading="eager"');
    for (const changed of [
      { ...card, final_price: card.price - 100, sale: true },
      { ...card, name: `${card.name} (new batch)` },
      { ...card, image: '/x/changed.png' },
      { ...card, rating: { average: 3, count: 1 } },
    ]) {
      cardFragments.setRenderer(undefined);
      const full = renderCards([changed], opts);
      cardFragments.setRenderer(renderToString);
      expect(renderCards([changed], opts)).toBe(full);
      cardFragments.flush();
      const hits = cardFragments.hits;
      expect(renderCards([changed], opts)).toBe(full);
      expect(cardFragments.hits).toBe(hits + 2);
      expect(full).not.toBe(before);
    }
  });
});

it('shows the rating (stars, average, count, and the words a screen reader hears) only on a rated card', () => {
  const base: ProductCardData = toProductCard(
    {
      ...({} as Parameters<typeof toProductCard>[0]),
      id: 1, sku: 'X', type_id: 'simple', name: 'Rated', slug: 'rated', url_path: 'rated', brand: null, image: null, strain_type: null,
      thc_percent: null, cbd_percent: null, license_type: 'both', price: 1000, special_price: null, special_from_date: null, special_to_date: null,
      tier_prices: [], custom_attributes: [], configurable_children: [], bundle_options: [], product_links: [], new: false, staff_pick: false,
      best_seller: false, updated_at: '2026-06-01T00:00:00.000Z',
    },
    NOW,
  );
  const opts = { basePath: '', storeCode: 'downtown' };
  const rated = renderCards([{ ...base, rating: { average: 4.5, count: 12 } }], opts).replace(/<!-- -->/g, '');
  expect(rated).toContain('<span class="sr-only">Rated 4.5 out of 5, 12 reviews</span>');
  expect(rated).toContain('★★★★★<span class="text-stone-500"></span>');
  expect(rated).toContain('4.5 (12)');
  const unrated = renderCards([base], opts);
  expect(unrated).not.toContain('card-rating');
  expect(unrated).not.toContain('out of 5');
});

it('keeps the fragment cache within its memory bound, least recently used out first', () => {
  const cache = new FragmentCache(() => 'x'.repeat(100), 1_000);
  const el = () => null;
  for (let i = 0; i < 20; i++) {
    expect(cache.get(`k${i}`, el)).toBeUndefined();
    cache.flush();
  }
  expect(cache.usedChars).toBeLessThanOrEqual(1_000);
  expect(cache.size).toBe(9);
  // k11 is the oldest left; using it keeps it past the next eviction, k12 goes instead.
  expect(cache.get('k11', el)).toBe('x'.repeat(100));
  cache.get('k20', el);
  cache.flush();
  expect(cache.get('k11', el)).toBeDefined();
  expect(cache.get('k12', el)).toBeUndefined();
});

it('caches nothing for a fragment that fails to render alone, and goes on with the others', () => {
  const cache = new FragmentCache((node) => {
    if (node === 'bad') throw new Error('cannot render alone');
    return String(node);
  });
  cache.get('bad', () => 'bad');
  cache.get('good', () => 'good');
  expect(() => cache.flush()).not.toThrow();
  expect(cache.get('bad', () => 'bad')).toBeUndefined();
  expect(cache.get('good', () => 'good')).toBe('good');
});

describe('issue 30: the price’s weight, the unit price and the quick add’s slot', () => {
  const base: ProductCardData = {
    id: 1,
    sku: 'FL-X',
    type_id: 'configurable',
    name: 'Test Kush',
    slug: 'test-kush',
    url_path: 'menu/flower/test-kush',
    brand: null,
    image: null,
    strain_type: null,
    thc_percent: null,
    cbd_percent: null,
    potency: null,
    license_type: 'both',
    price: 3500,
    final_price: 3500,
    price_from: true,
    price_size: 92,
    sale: false,
    new: false,
    staff_pick: false,
    best_seller: false,
    updated_at: '2026-01-01T00:00:00Z',
  };
  const text = (html: string) => html.replace(/<!-- -->/g, '').replace(/<[^>]+>/g, '|').replace(/\|+/g, '|');
  const opts = { basePath: '', storeCode: 'downtown' };

  it.each([
    // [what, card, the price paragraph's text pieces (visible and screen-reader), quick add]
    ['a sized product: from, its weight and per gram', base, '|from |$35.00| / | for |3.5 g|$10.00/g|$10.00 per gram|', true],
    ['a 1 g price: the weight says it all', { ...base, price: 1600, final_price: 1600, price_size: 91 }, '|from |$16.00| / | for |1 g|', true],
    [
      'a deal: the unit price is of the deal price charged',
      { ...base, price: 4000, final_price: 4000, deal: { priceCents: 2800, basePriceCents: 4000, words: ['30% off'], ids: ['D1'] } },
      '|Deal price |from |$28.00| / | for |3.5 g| |Regular price |$40.00|$8.00/g|$8.00 per gram|',
      true,
    ],
    [
      'an edible: per 10 mg THC',
      { ...base, type_id: 'simple', price: 2000, final_price: 2000, price_from: false, price_size: null, potency: { thcMg: 100, cbdMg: null, pieces: 10 } },
      '|$20.00|$2.00/10 mg THC|$2.00 per 10 mg THC|',
      true,
    ],
    ['a bundle: no quick add (configured on its page)', { ...base, type_id: 'bundle', price_from: false, price_size: null }, '|$35.00|', false],
  ] as const)('%s', (_what, card, priceText, quickAdd) => {
    const html = renderCards([card as ProductCardData], opts);
    const price = /<p class="mt-auto pt-2">(.*?)<\/p>/.exec(html)?.[1];
    expect(price && text(`|${price}|`)).toBe(priceText);
    // The slot the button lands in after hydration: the same empty box in full and cached renders.
    expect(html.includes('<div class="card-add"></div>')).toBe(quickAdd);
    cardFragments.setRenderer(renderToString);
    renderCards([card as ProductCardData], opts);
    cardFragments.flush();
    expect(renderCards([card as ProductCardData], opts)).toBe(html);
  });
});
