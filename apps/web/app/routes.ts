import { index, layout, route, type RouteConfig, type RouteConfigEntry } from '@react-router/dev/routes';
import { STATIC_PAGE_IDENTIFIERS } from './lib/static-pages.ts';

/**
 * The routes of spec §2. Every route exists twice: as written, and behind an optional store-code
 * prefix (`/:storeCode/...`). The prefixed copy is generated from the same tree, with `-prefixed`
 * ids; its layout loaders answer 404 unless the prefix is the store the server resolved.
 *
 * Layouts (spec §2): default (header, main, footer), minimal (logo + main, for /error) and empty
 * (no chrome: the stand-alone age-gate page used when JavaScript is off).
 */
const ACCOUNT_BLOCKS = ['shipping-details', 'newsletter', 'orders', 'orders/:orderId', 'points', 'reviews', 'recently-viewed'];

const storeTree: RouteConfigEntry[] = [
  layout('layouts/default.tsx', { id: 'layout-default' }, [
    index('routes/home.tsx', { id: 'home' }),
    route('pwa.html', 'routes/home.tsx', { id: 'home-pwa' }),
    route('checkout', 'routes/checkout.tsx', { id: 'checkout' }),
    // /order-tracking is a form with an action (issue 12), not a CMS page.
    ...STATIC_PAGE_IDENTIFIERS.filter((page) => page !== 'order-tracking').map((page) =>
      route(page, 'routes/static-page.tsx', { id: `static-${page}` }),
    ),
    route('order-tracking', 'routes/order-tracking.tsx', { id: 'order-tracking' }),
    // Issue 29: the curbside "I'm here" page the ready-for-pickup message links to (a signed token, no login).
    route('curbside/:token', 'routes/curbside.tsx', { id: 'curbside' }),
    // Issue 30: back-in-stock alerts without JavaScript (the guest's form) and a message's one-tap unsubscribe page.
    route('stock-alert', 'routes/stock-alert.tsx', { id: 'stock-alert' }),
    route('unsubscribe/:token', 'routes/unsubscribe.tsx', { id: 'unsubscribe' }),
    route('contact', 'routes/contact.tsx', { id: 'contact' }),
    route('my-account', 'routes/account.tsx', { id: 'my-account' }),
    ...ACCOUNT_BLOCKS.map((block) =>
      route(`my-account/${block}`, 'routes/account.tsx', { id: `my-account-${block.replace(/\/:\w+/, '-one')}` }),
    ),
    route('compare', 'routes/compare.tsx', { id: 'compare' }),
    route('p/:parentSku/:slug/:childSku?', 'routes/product.tsx', { id: 'product' }),
    route('menu/:slug?', 'routes/category.tsx', { id: 'category' }),
    // Nested categories (`/menu/flower/indica`): url_path `menu/flower/indica`.
    route('menu/*', 'routes/category.tsx', { id: 'category-nested' }),
    route('c/:slug', 'routes/category.tsx', { id: 'category-link' }),
    route('i/:slug', 'routes/cms-page.tsx', { id: 'cms-page' }),
    route('create-password', 'routes/create-password.tsx', { id: 'create-password' }),
    route('newsletter', 'routes/newsletter.tsx', { id: 'newsletter' }),
    route('*', 'routes/not-found.tsx', { id: 'page-not-found' }),
  ]),
  layout('layouts/minimal.tsx', { id: 'layout-minimal' }, [route('error', 'routes/error.tsx', { id: 'error' })]),
  layout('layouts/empty.tsx', { id: 'layout-empty' }, [route('age-gate', 'routes/age-gate.tsx', { id: 'age-gate' })]),
];

const PREFIXED_ID_SUFFIX = '-prefixed';

function suffixIds(entry: RouteConfigEntry): RouteConfigEntry {
  return {
    ...entry,
    id: `${entry.id}${PREFIXED_ID_SUFFIX}`,
    children: entry.children?.map(suffixIds),
  };
}

/** The same tree behind `/:storeCode`: each top-level layout gains the prefix as its path. */
function withStoreCodePrefix(entries: RouteConfigEntry[]): RouteConfigEntry[] {
  return entries.map((entry) => {
    const copy = suffixIds(entry);
    return { ...copy, path: entry.path ? `:storeCode/${entry.path}` : ':storeCode' };
  });
}

export default [...storeTree, ...withStoreCodePrefix(storeTree)] satisfies RouteConfig;
