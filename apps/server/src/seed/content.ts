/**
 * CMS pages for every static route of spec §2 (plain-text placeholders that name the store),
 * a few CMS blocks, and legacy URL rewrites. One inactive page exists to prove inactive pages stay
 * hidden.
 */
import {
  SIZE_IDS,
  STATIC_PAGES,
  STATIC_PAGE_IDENTIFIERS as DOMAIN_STATIC_PAGE_IDENTIFIERS,
  deliveryFeeText,
  groupHours,
  offeredLicenseTypes,
  sizeLongLabel,
  usableMaxGrams,
  type Store,
} from '@verdant/domain';
import type { Row } from '../db/schema.ts';
import { categoryId } from './categories.ts';
import { paragraphs } from './text.ts';

/** CMS pages of every static route (spec §2), plus the contact page's text. */
export const STATIC_PAGE_IDENTIFIERS = [...DOMAIN_STATIC_PAGE_IDENTIFIERS, 'contact'] as const;

export const INACTIVE_PAGE_IDENTIFIER = 'holiday-hours';

type PageId = (typeof STATIC_PAGE_IDENTIFIERS)[number] | typeof INACTIVE_PAGE_IDENTIFIER;
type PageText = { title: string; body: string[] };

function pageTexts(store: Store): Record<PageId, PageText> {
  const info = store.dispensarySettings.place_info;
  const a = info.address;
  const name = store.name;
  const where = `${a.street}, ${a.city}, ${a.region_code} ${a.postcode}`;
  const audience = offeredLicenseTypes(store)
    .map((l) => (l === 'medical' ? 'registered patients' : 'adults 21 and over'))
    .join(' and ');
  // The storefront's one hours format (`Monday – Sunday 9:00 AM – 9:00 PM`).
  const hours = groupHours(info.hours).map((g) => `${g.days} ${g.hours}`).join(', ');
  const email = info.email ?? `hello@${store.storeCode}.verdant.example`;
  const rec = usableMaxGrams(store, 'recreational');
  const specials = store.dispensarySettings.specials.map((s) => `${s.title}: ${s.description}`);
  return {
    legal: {
      title: STATIC_PAGES.legal,
      body: [
        `${name} is operated under California cannabis license ${info.license_number}.`,
        `Registered address: ${where}. Products are for use only by ${audience}.`,
        'Keep cannabis out of reach of children and animals. Do not drive or operate machinery while impaired.',
      ],
    },
    privacy: {
      title: STATIC_PAGES.privacy,
      body: [
        `This placeholder explains how ${name} handles your data.`,
        'We keep the details you give us (phone, email, ID and medical card uploads) only to process orders and to meet state record-keeping rules.',
        `Questions about your data: ${email}.`,
      ],
    },
    terms: {
      title: STATIC_PAGES.terms,
      body: [
        `By ordering from ${name} you confirm you are 21 or older, or a qualified patient.`,
        'Orders are paid on delivery or at pickup. Prices exclude tax; cannabis excise and sales tax are shown separately at checkout.',
        'Purchase limits set by state law apply to every order.',
      ],
    },
    sale: {
      title: STATIC_PAGES.sale,
      body: [
        `Current deals at ${name}.`,
        ...specials,
        'Deals apply while supplies last and cannot be combined unless stated.',
      ],
    },
    'order-tracking': {
      title: STATIC_PAGES['order-tracking'],
      body: [
        `Track orders placed with ${name} under My account, Orders.`,
        `For help with an order call ${info.phone}.`,
      ],
    },
    'about-us': {
      title: STATIC_PAGES['about-us'],
      body: [
        `${name} is a licensed cannabis dispensary at ${where}, serving ${audience}.`,
        'Our budtenders help you find the right product, from flower to tinctures, and explain how to use it safely.',
        `State license ${info.license_number}.`,
      ],
    },
    'customer-service': {
      title: STATIC_PAGES['customer-service'],
      body: [`Our team at ${name} is here during opening hours: ${hours}.`, `Call ${info.phone} or write to ${email}.`],
    },
    'store-locator': {
      title: STATIC_PAGES['store-locator'],
      body: [`${name}: ${where}.`, `Opening hours: ${hours}.`, `Phone ${info.phone}.`],
    },
    'size-guide': {
      title: STATIC_PAGES['size-guide'],
      body: [
        `Flower at ${name} comes in ${SIZE_IDS.map(sizeLongLabel).join(', ')}.`,
        'An ounce is 28 g. Larger sizes cost less per gram.',
        rec
          ? `Adult-use orders may hold up to ${rec} g of cannabis or its equivalent.`
          : 'Patient limits follow your recommendation and state law.',
      ],
    },
    'gift-card': {
      title: STATIC_PAGES['gift-card'],
      body: [
        `${name} gift cards are sold in store and can be redeemed at pickup or on delivery.`,
        'Gift cards cannot be exchanged for cash.',
      ],
    },
    delivery: {
      title: STATIC_PAGES.delivery,
      body: [
        `${name} delivers within ${info.delivery_radius_miles} miles of the store. Delivery costs ${deliveryFeeText()} and pickup is free.`,
        'Have your ID (and medical card if you order as a patient) ready: the driver checks it at the door.',
      ],
    },
    returns: {
      title: STATIC_PAGES.returns,
      body: [
        'State law does not allow cannabis to be returned once it leaves the store.',
        `If a product is defective, bring it with your receipt to ${name} within 7 days and we will exchange it.`,
      ],
    },
    'order-from-catalog': {
      title: STATIC_PAGES['order-from-catalog'],
      body: [
        `Browse the ${name} menu, add products to your cart and choose pickup or delivery.`,
        'You pay when you collect your order or when it is delivered.',
      ],
    },
    contact: {
      title: 'Contact us',
      body: [`${name}, ${where}.`, `Phone ${info.phone}, email ${email}.`, `Opening hours: ${hours}.`],
    },
    'holiday-hours': { title: 'Holiday hours', body: [`${name} holiday hours will be posted here.`] },
  };
}

/** The first sentence, at most 155 characters (what search results show). */
function metaDescription(body: string[]): string {
  const first = body[0].split(/(?<=\.)\s/)[0];
  return first.length <= 155 ? first : `${first.slice(0, 152)}...`;
}

export function cmsRows(store: Store, at: string) {
  const texts = pageTexts(store);
  const identifiers: PageId[] = [...STATIC_PAGE_IDENTIFIERS, INACTIVE_PAGE_IDENTIFIER];
  const pages: Row<'cms_pages'>[] = identifiers.map((identifier, i) => ({
    id: store.storeId * 1000 + i + 1,
    store_id: store.storeId,
    identifier,
    title: texts[identifier].title,
    content_heading: texts[identifier].title,
    content: paragraphs(...texts[identifier].body),
    meta_title: `${texts[identifier].title} | ${store.name}`,
    meta_description: metaDescription(texts[identifier].body),
    meta_keywords: null,
    is_active: identifier === INACTIVE_PAGE_IDENTIFIER ? 0 : 1,
    created_at: at,
    updated_at: at,
  }));
  const info = store.dispensarySettings.place_info;
  const blocks: [string, string, string][] = [
    [
      'age-notice',
      'Age notice',
      'You must be 21 or older, or a qualified patient with a valid recommendation, to shop here.',
    ],
    [
      'license-notice',
      'License notice',
      `${store.name} is licensed by the California Department of Cannabis Control, license ${info.license_number}.`,
    ],
    [
      'delivery-banner',
      'Delivery banner',
      `Free pickup at ${info.address.street}. Delivery within ${info.delivery_radius_miles} miles for ${deliveryFeeText()}.`,
    ],
    ['footer-about', 'Footer about', `${store.name}: ${store.seo.description || 'a licensed cannabis dispensary.'}`],
  ];
  const cmsBlocks: Row<'cms_blocks'>[] = blocks.map(([identifier, title, content], i) => ({
    id: store.storeId * 1000 + i + 1,
    store_id: store.storeId,
    identifier,
    title,
    content,
    is_active: 1,
    created_at: at,
    updated_at: at,
  }));
  return { pages, blocks: cmsBlocks };
}

/** Legacy paths of the old site, kept working with redirects (and one in-place rewrite). */
export function urlRewriteRows(
  storeId: number,
  pages: readonly Row<'cms_pages'>[],
  products: readonly Row<'products'>[],
): Row<'url_rewrites'>[] {
  const page = (identifier: string) => pages.find((p) => p.identifier === identifier)?.id ?? null;
  const rows: Row<'url_rewrites'>[] = [
    {
      store_id: storeId,
      request_path: 'specials',
      target_type: 'category',
      target_id: 2,
      target_sku: null,
      redirect_type: 301,
    },
    {
      store_id: storeId,
      request_path: 'shop/flower',
      target_type: 'category',
      target_id: categoryId('flower'),
      target_sku: null,
      redirect_type: 301,
    },
    {
      store_id: storeId,
      request_path: 'edibles/gummies',
      target_type: 'category',
      target_id: categoryId('gummies'),
      target_sku: null,
      redirect_type: 301,
    },
    {
      store_id: storeId,
      request_path: 'about',
      target_type: 'cms_page',
      target_id: page('about-us'),
      target_sku: null,
      redirect_type: 301,
    },
    {
      store_id: storeId,
      request_path: 'deals',
      target_type: 'cms_page',
      target_id: page('sale'),
      target_sku: null,
      redirect_type: 0,
    },
  ];
  const blueDream = products.find((p) => p.sku === 'FL-BLUE-DREAM');
  if (blueDream) {
    // The old site sold the eighth as its own page: land on the product with 3.5 g selected.
    rows.push({
      store_id: storeId,
      request_path: 'shop/blue-dream-eighth',
      target_type: 'product',
      target_id: blueDream.id,
      target_sku: 'FL-BLUE-DREAM-8TH',
      redirect_type: 301,
    });
  }
  return rows.sort((x, y) => x.request_path.localeCompare(y.request_path));
}
