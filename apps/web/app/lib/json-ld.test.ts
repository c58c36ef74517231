import { describe, expect, it } from 'vitest';
import { breadcrumbListJsonLd, centsToDecimal, jsonLdHtml, productJsonLd } from './json-ld.ts';

describe('jsonLdHtml', () => {
  it('escapes what could end the script element, and stays valid JSON', () => {
    const data = { name: '</script><script>alert(1)</script>', note: 'a & b > c', sep: '\u2028' };
    const html = jsonLdHtml(data);
    expect(html).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(html)).toEqual(data);
  });
});

describe('product structured data', () => {
  const base = { name: 'Blue Dream', sku: 'FL-BD', url: 'https://x.test/p/FL-BD/blue-dream', images: [], currency: 'USD' };

  it('prices in dollars with two decimals', () => {
    expect(centsToDecimal(1600)).toBe('16.00');
    expect(centsToDecimal(5)).toBe('0.05');
    expect(centsToDecimal(123456)).toBe('1234.56');
  });

  it('carries aggregateRating and the shown reviews only when a review is published (issue 30)', () => {
    const offers = [{ sku: 'FL-BD', price: 1999, inStock: true }];
    const item = { author: 'Ana R.', stars: 4, title: 'Bright', text: 'Citrus and calm.', date: '2026-06-01T10:00:00.000Z' };
    const ld = productJsonLd({ ...base, offers, aggregate: false, reviews: { average: 4.5, count: 2, items: [item] } });
    expect(ld).toMatchObject({
      aggregateRating: { '@type': 'AggregateRating', ratingValue: 4.5, reviewCount: 2, bestRating: 5, worstRating: 1 },
      review: [{ '@type': 'Review', author: { '@type': 'Person', name: 'Ana R.' }, datePublished: '2026-06-01', name: 'Bright', reviewRating: { '@type': 'Rating', ratingValue: 4 } }],
    });
    for (const reviews of [null, { average: 0, count: 0, items: [] }]) {
      const none = productJsonLd({ ...base, offers, aggregate: false, reviews });
      expect(none).not.toHaveProperty('aggregateRating');
      expect(none).not.toHaveProperty('review');
    }
  });

  it('gives a simple product one Offer', () => {
    const ld = productJsonLd({ ...base, brand: 'Sierra', offers: [{ sku: 'FL-BD', price: 1999, inStock: false }], aggregate: false });
    expect(ld).toMatchObject({
      '@type': 'Product',
      brand: { '@type': 'Brand', name: 'Sierra' },
      offers: { '@type': 'Offer', price: '19.99', priceCurrency: 'USD', availability: 'https://schema.org/OutOfStock', url: base.url },
    });
  });

  it('gives a configurable an AggregateOffer with low and high prices', () => {
    const ld = productJsonLd({
      ...base,
      offers: [
        { sku: 'A', price: 5200, inStock: true },
        { sku: 'B', price: 1600, inStock: false },
        { sku: 'C', price: 31400, inStock: true },
      ],
      aggregate: true,
    });
    expect(ld).toMatchObject({
      offers: { '@type': 'AggregateOffer', lowPrice: '16.00', highPrice: '314.00', offerCount: 3, availability: 'https://schema.org/InStock' },
    });
  });

  it('lists breadcrumbs with positions', () => {
    expect(breadcrumbListJsonLd([{ name: 'Home', url: 'https://x.test/' }, { name: 'Flower' }]).itemListElement).toEqual([
      { '@type': 'ListItem', position: 1, name: 'Home', item: 'https://x.test/' },
      { '@type': 'ListItem', position: 2, name: 'Flower' },
    ]);
  });
});
