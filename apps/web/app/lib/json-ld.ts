/**
 * Structured data (schema.org JSON-LD) for product and category pages: `Product` with its offers
 * and `BreadcrumbList`. Prices are integer cents in the app and decimal strings here.
 */
import type { Cents } from '@verdant/domain';

/**
 * JSON for an inline `<script type="application/ld+json">`: `<` (and the line separators JSON
 * allows but old parsers choke on) are escaped so no value can close the script element.
 */
export function jsonLdHtml(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** `1234` cents → `"12.34"` (schema.org wants a plain decimal, no currency sign). */
export function centsToDecimal(cents: Cents): string {
  return (Math.round(cents) / 100).toFixed(2);
}

export interface Crumb {
  name: string;
  /** Absolute URL; the last crumb (the page itself) may omit it. */
  url?: string;
}

export function breadcrumbListJsonLd(crumbs: Crumb[]) {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((c, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: c.name,
      ...(c.url ? { item: c.url } : {}),
    })),
  };
}

export interface ProductJsonLdInput {
  name: string;
  sku: string;
  url: string;
  description?: string | null;
  brand?: string | null;
  images: string[];
  currency: string;
  /** One entry per sellable variant (one for a simple product). */
  offers: { sku: string; price: Cents; inStock: boolean; url?: string }[];
  /** Use an AggregateOffer (configurables: one product, several sizes). */
  aggregate: boolean;
  /**
   * Issue 30: the published reviews' average and count, and the reviews shown on the page. Nothing
   * is added without a published review (search engines reject an empty rating).
   */
  reviews?: { average: number; count: number; items: { author: string; stars: number; title: string; text: string; date: string }[] } | null;
}

function reviewsPart(r: ProductJsonLdInput['reviews']) {
  if (!r || r.count === 0) return {};
  return {
    aggregateRating: { '@type': 'AggregateRating', ratingValue: r.average, reviewCount: r.count, bestRating: 5, worstRating: 1 },
    review: r.items.map((i) => ({
      '@type': 'Review',
      author: { '@type': 'Person', name: i.author },
      datePublished: i.date.slice(0, 10),
      name: i.title,
      reviewBody: i.text,
      reviewRating: { '@type': 'Rating', ratingValue: i.stars, bestRating: 5, worstRating: 1 },
    })),
  };
}

const IN_STOCK = 'https://schema.org/InStock';
const OUT_OF_STOCK = 'https://schema.org/OutOfStock';

export function productJsonLd(p: ProductJsonLdInput) {
  const base = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: p.name,
    sku: p.sku,
    url: p.url,
    ...(p.description ? { description: p.description } : {}),
    ...(p.brand ? { brand: { '@type': 'Brand', name: p.brand } } : {}),
    ...(p.images.length ? { image: p.images } : {}),
    ...reviewsPart(p.reviews),
  };
  if (p.offers.length === 0) return base;
  const anyInStock = p.offers.some((o) => o.inStock);
  if (p.aggregate) {
    const prices = p.offers.map((o) => o.price);
    return {
      ...base,
      offers: {
        '@type': 'AggregateOffer',
        priceCurrency: p.currency,
        lowPrice: centsToDecimal(Math.min(...prices)),
        highPrice: centsToDecimal(Math.max(...prices)),
        offerCount: p.offers.length,
        availability: anyInStock ? IN_STOCK : OUT_OF_STOCK,
        offers: p.offers.map((o) => ({
          '@type': 'Offer',
          sku: o.sku,
          price: centsToDecimal(o.price),
          priceCurrency: p.currency,
          availability: o.inStock ? IN_STOCK : OUT_OF_STOCK,
          ...(o.url ? { url: o.url } : {}),
        })),
      },
    };
  }
  const offer = p.offers[0];
  return {
    ...base,
    offers: {
      '@type': 'Offer',
      price: centsToDecimal(offer.price),
      priceCurrency: p.currency,
      availability: offer.inStock ? IN_STOCK : OUT_OF_STOCK,
      url: offer.url ?? p.url,
    },
  };
}
