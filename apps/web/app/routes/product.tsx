import { data, replace, redirect, type ShouldRevalidateFunctionArgs } from 'react-router';
import { chooseVariant, productPath, type CatalogProduct } from '@verdant/domain';
import type { Route } from './+types/product';
import { readShopper } from '../lib/shopper.ts';
import { offlineFallback } from '../lib/offline-catalog.ts';
import { kitPartsReady, ProductView } from '../components/product/ProductView.tsx';
import { ProductReviews } from '../components/product/ProductReviews.tsx';
import { JsonLd } from '../components/seo/JsonLd.tsx';
import { categoryCrumbs, indexCategories, type BreadcrumbItem } from '../lib/category-tree.ts';
import { notFound } from '../lib/guards.ts';
import { breadcrumbListJsonLd, productJsonLd } from '../lib/json-ld.ts';
import { absoluteUrl, pageMeta } from '../lib/meta.ts';
import { outputCacheHeaders } from '../lib/output-cache.ts';
import { galleryImages, productOffers } from '../lib/product-page.ts';
import { productImageSrc, GALLERY_HEIGHT, GALLERY_WIDTH } from '../lib/product-view.ts';
import { withBasePath } from '../lib/paths.ts';
import { toPublicStore } from '../lib/store-view.ts';

/** Spec §8: a disabled or non-visible product is "not there" for a shopper. */
function isProductQueryMiss(error: unknown): boolean {
  return error instanceof Error && /Product query returned empty result/.test(error.message);
}

/**
 * /p/{parentSku}/{slug}/{childSku?} (spec §2): one product by its parent sku. A child sku opened
 * directly (its parent comes back) answers 301 to the parent with that child chosen; a wrong slug
 * answers 301 to the right one; an unknown child is dropped (301). Client-side these redirects
 * replace the history entry. `?size=93` (the size form without JavaScript) picks a size by the
 * variant rule and redirects to that child's URL.
 */
async function load({ request, url, params, context }: Route.LoaderArgs) {
  const { store, services, basePath } = context;
  let product: CatalogProduct | null;
  try {
    product = await services.product(store, params.parentSku);
  } catch (error) {
    if (isProductQueryMiss(error)) notFound();
    throw error;
  }
  if (!product) notFound();
  const to = (childSku?: string | null) => withBasePath(basePath, productPath(product, childSku));
  const isChild = (sku: string | undefined) => Boolean(sku && product.configurable_children.some((c) => c.sku === sku));

  if (product.sku !== params.parentSku) {
    throw replace(to(isChild(params.parentSku) ? params.parentSku : params.childSku), 301);
  }
  if (params.childSku && !isChild(params.childSku)) throw replace(to(null), 301);
  if (params.slug !== product.slug) throw replace(to(params.childSku), 301);

  const now = new Date();
  let warning: string | null = null;
  const sizeParam = url.searchParams.get('size');
  if (sizeParam && product.type_id === 'configurable') {
    const choice = chooseVariant(product, { size: Number(sizeParam) }, { now });
    if (choice.child) throw redirect(to(choice.child.sku), 302);
    warning = choice.warning;
  }

  // A kit's options are server-rendered from code the browser loads only on kit pages.
  await kitPartsReady(product);
  const tree = await services.categoryTree(store);
  const byId = indexCategories(tree);
  const first = product.category.map((c) => byId.get(c.category_id)).find(Boolean);
  const crumbs: BreadcrumbItem[] = first ? categoryCrumbs(first, byId, product.name) : [{ name: 'Home', path: '/' }, { name: product.name }];

  const canonicalPath = productPath(product);
  const origin = (p: string) => absoluteUrl(url.href, basePath, p);
  const images = galleryImages(product);
  const imageUrls = images.map((i) => new URL(productImageSrc(i.image, GALLERY_WIDTH, GALLERY_HEIGHT), url).href);
  const money = toPublicStore(store).money;
  // Issue 30: the first page of published reviews with the average (none offline or when the store switched reviews off).
  const reviews = (await context.productReviews?.(product.sku, 'newest', 1)) ?? null;
  const shownReviews = reviews?.enabled ? reviews : null;
  const productLd = productJsonLd({
    name: product.name,
    sku: product.sku,
    url: origin(canonicalPath),
    description: product.short_description || product.description,
    brand: product.brand,
    images: imageUrls,
    currency: money.currencyCode,
    offers: productOffers(product, now).map((o) => ({ ...o, url: origin(productPath(product, o.childSku)) })),
    aggregate: product.type_id === 'configurable',
    reviews: shownReviews && {
      ...shownReviews.summary,
      items: shownReviews.items.map((r) => ({ author: r.author, stars: r.stars, title: r.title, text: r.text, date: r.created_at })),
    },
  });
  const breadcrumbLd = breadcrumbListJsonLd(crumbs.map((c) => ({ name: c.name, url: origin(c.path ?? canonicalPath) })));
  // Issue 28: the deals live now on the product and each of its sizes (a guest of the shopper's licence).
  const { licenseType } = readShopper(request.headers.get('Cookie'), store);
  const deals = (await services.productDeals(store, licenseType, [product.sku])).bySku;
  const result = {
    product,
    deals,
    now: now.toISOString(),
    warning,
    reviews: shownReviews,
    crumbs,
    canonical: origin(canonicalPath),
    ogImage: imageUrls[0] ?? null,
    jsonLd: [productLd, breadcrumbLd],
  };
  return data(result, { headers: url.search ? {} : outputCacheHeaders() });
}

export const loader = (args: Route.LoaderArgs) => load(args);

/** Offline (issue 6): the service worker's copy of the data, else this loader run on the catalogue snapshot. */
export const clientLoader = (args: Route.ClientLoaderArgs) => offlineFallback(args, load);

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * Choosing a size only swaps the child sku in the URL (history replace): the product is already
 * here, so nothing reloads.
 */
export function shouldRevalidate({ currentParams, nextParams, currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (
    !formMethod &&
    currentParams.parentSku === nextParams.parentSku &&
    currentParams.slug === nextParams.slug &&
    currentParams.storeCode === nextParams.storeCode &&
    currentUrl.search === nextUrl.search &&
    currentParams.childSku !== nextParams.childSku
  ) {
    return false;
  }
  return defaultShouldRevalidate;
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  if (!loaderData) return pageMeta(matches);
  const { product } = loaderData;
  const title = product.brand ? `${product.name} by ${product.brand}` : product.name;
  const description = (product.short_description || product.description || '').replace(/\s+/g, ' ').trim().slice(0, 160);
  return pageMeta(matches, { title, description, canonical: loaderData.canonical, image: loaderData.ogImage, type: 'product' });
};

export default function Product({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <ProductView
        product={loaderData.product}
        deals={loaderData.deals}
        now={loaderData.now}
        crumbs={loaderData.crumbs}
        serverWarning={loaderData.warning}
        rating={loaderData.reviews?.summary ?? null}
      />
      <ProductReviews sku={loaderData.product.sku} initial={loaderData.reviews} />
      {loaderData.jsonLd.map((ld, i) => (
        <JsonLd key={i} data={ld} />
      ))}
    </>
  );
}
