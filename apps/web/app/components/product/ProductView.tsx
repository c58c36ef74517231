import { useEffect, useMemo, useRef, useState } from 'react';
import { Form, useLocation, useNavigate, useParams } from 'react-router';
import { bundlePrice, chooseVariant, defaultBundleChoice, formatMoney, groupDiscoveryTags, infusedPotency, productErrors, productPath, productPrice, unitPriceMeasure, type BundleChoice, type CatalogProduct, type ProductDealView } from '@verdant/domain';
import { Breadcrumbs } from '../catalog/Breadcrumbs.tsx';
import { SaveToggle } from '../saved/SaveToggle.tsx';
import { AddToCart } from './AddToCart.tsx';
import { Price } from './Price.tsx';
import { ProductGallery } from './ProductGallery.tsx';
import { SizeSelector } from './SizeSelector.tsx';
import { StockAlert } from './StockAlert.tsx';
import { LabFacts, ProductFacts } from './ProductFacts.tsx';
import { splitComponent } from '../ui/SplitComponent.tsx';
import type { BreadcrumbItem } from '../../lib/category-tree.ts';
import { chosenPriceView, galleryImages, pageCustomerGroup, sizeChoices, stockLabel } from '../../lib/product-page.ts';
import { useRootData, useStorePath } from '../../lib/root-data.ts';
import { useDealDisplay } from '../../lib/deal-view.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { cachedElement } from '../../lib/cached-element.tsx';
import { pageFragments } from '../../lib/fragment-cache.ts';
import { announce } from '../../lib/announce.ts';
import { useRecordView } from '../../state/recently-viewed.ts';
import { useAuth } from '../../state/use-auth.ts';

interface Props {
  product: CatalogProduct;
  /** Issue 28: the deals live now, by sku (the product and each size). */
  deals?: Readonly<Record<string, ProductDealView>>;
  /** The time prices were judged at on the server (the same on hydration). */
  now: string;
  crumbs: BreadcrumbItem[];
  /** The variant warning of a `?size=` choice without JavaScript. */
  serverWarning: string | null;
  /** Issue 30: the published reviews' average and count (null: reviews off or offline). */
  rating?: { average: number; count: number } | null;
}

/**
 * Kits (bundles and grouped sets) are a few products of a menu: their option and member lists
 * load only on their pages (server-rendered all the same: the route's loader awaits
 * `kitPartsReady`), so a plain product page does not carry their code.
 */
const BundleOptions = splitComponent(() => import('./BundleOptions.tsx').then((m) => m.BundleOptions));
const GroupedMembers = splitComponent(() => import('./GroupedMembers.tsx').then((m) => m.GroupedMembers));

/** Loads the kit part a product's page renders (none for other products); the product loader awaits it. */
export async function kitPartsReady(product: Pick<CatalogProduct, 'type_id'>): Promise<void> {
  if (product.type_id === 'bundle') await BundleOptions.ready();
  else if (product.type_id === 'grouped') await GroupedMembers.ready();
}

const STOCK_CLASSES = { ok: 'text-brand-ink', volatile: 'text-amber-800', out_of_stock: 'text-red-700' } as const;

/**
 * The product page body. A configurable shows the size radio group; the chosen child (from the
 * URL, else the variant rule's best default) drives the price, stock line and URL, which keeps the
 * child sku (history replace, no scroll jump, no reload). A bundle shows its options and is priced
 * as chosen; a grouped set lists its members with a quantity each.
 */
export function ProductView({ product, deals = {}, now: nowIso, crumbs, serverWarning, rating = null }: Props) {
  const { store } = useRootData();
  const storePath = useStorePath();
  const navigate = useNavigate();
  const location = useLocation();
  const hydrated = useHydrated();
  const params = useParams();
  const now = useMemo(() => new Date(nowIso), [nowIso]);
  const configurable = product.type_id === 'configurable';
  // Guest prices in the (cached, shared) server HTML; the customer's group once the page knows it.
  const group = pageCustomerGroup(hydrated, useAuth((s) => s.user));
  const choices = useMemo(() => sizeChoices(product, now, group), [product, now, group]);
  const [qty, setQty] = useState(1);
  const defaultChild = useMemo(() => (configurable ? chooseVariant(product, {}, { now }).child : null), [product, now, configurable]);
  const urlChild = product.configurable_children.find((c) => c.sku === params.childSku) ?? null;
  const fromUrl = urlChild?.sku ?? defaultChild?.sku ?? null;
  const [selectedSku, setSelectedSku] = useState<string | null>(fromUrl);
  const [warning, setWarning] = useState<string | null>(serverWarning);
  // The address's size when the address changes (Back, a link to another size) — not at mount: the
  // state starts from it, and a size tapped before hydration (SizeSelector adopts it in its own
  // mount effect, which runs first) must not be put back to the address's before its page lands.
  const lastFromUrl = useRef(fromUrl);
  useEffect(() => {
    if (lastFromUrl.current === fromUrl) return;
    lastFromUrl.current = fromUrl;
    setSelectedSku(fromUrl);
  }, [fromUrl]);
  const bundle = product.type_id === 'bundle';
  const [bundleChoice, setBundleChoice] = useState<BundleChoice>(() => defaultBundleChoice(product.bundle_options));
  useEffect(() => setBundleChoice(defaultBundleChoice(product.bundle_options)), [product]);

  const child = product.configurable_children.find((c) => c.sku === selectedSku) ?? null;
  // What the cart will charge for the choice at the chosen quantity (spec §4), for the shopper's
  // group: a size with its weight price and tiers, a simple product with its tiers (chosenPriceView,
  // the cart's own rule); a bundle as chosen, by the rule the listing prices its default choice with.
  const kit = bundle || product.type_id === 'grouped';
  const unit = child ?? (!configurable && !kit ? product : null);
  const chosen = unit ? chosenPriceView(unit, child ? product : null, now, group, qty) : null;
  const price = chosen
    ? { ...chosen, from: false }
    : bundle
      ? bundlePrice(product.bundle_options, bundleChoice, now, group)
      : productPrice(product, now, group);
  // Issue 28: the deal of the chosen size (or the product); its price only while the page shows the price it was judged at.
  const deal = deals[child?.sku ?? product.sku] ?? null;
  const dealPrice = deal?.priceCents != null && deal.basePriceCents === price.final_price && (child != null || !configurable) ? deal.priceCents : null;
  const display = useDealDisplay();
  const stock = stockLabel(child ? child.stock : product.stock);
  const errors = productErrors(product);
  const images = galleryImages(child?.image ? { ...product, image: child.image } : product);
  const saved = { sku: product.sku, name: product.name, path: productPath(product), image: product.image, brand: product.brand };
  useRecordView(saved);

  const chooseSize = (size: number) => {
    const choice = chooseVariant(product, { size }, { now });
    setWarning(choice.warning);
    if (!choice.child) return;
    setSelectedSku(choice.child.sku);
    const chosen = choices.find((c) => c.child?.sku === choice.child?.sku);
    if (chosen) announce(`${chosen.label} selected: ${formatMoney(chosen.charge, store.money)}.`);
    navigate(`${storePath(productPath(product, choice.child.sku))}${location.search}`, { replace: true, preventScrollReset: true });
  };

  const chooseBundle = (next: BundleChoice) => {
    setBundleChoice(next);
    announce(`Bundle price ${formatMoney(bundlePrice(product.bundle_options, next, now, group).final_price, store.money)}.`);
  };

  return (
    <div className="mx-auto max-w-7xl px-4 py-6 sm:px-6 sm:py-8">
      <Breadcrumbs items={crumbs} />
      <div className="mt-5 grid gap-8 md:grid-cols-2 lg:gap-12">
        <ProductGallery images={images} name={product.name} />
        <div>
          {product.brand ? <p className="text-sm font-semibold tracking-wide text-stone-600 uppercase">{product.brand}</p> : null}
          <h1 className="mt-1 font-display text-3xl font-bold tracking-tight text-stone-900 sm:text-4xl">{product.name}</h1>
          {rating && rating.count > 0 ? (
            <p className="mt-1">
              <a href="#reviews" className="text-stone-800 underline" data-testid="product-rating">
                <span aria-hidden="true" className="text-amber-800">
                  ★
                </span>{' '}
                {`${rating.average.toFixed(1)} out of 5 · ${rating.count === 1 ? '1 review' : `${rating.count} reviews`}`}
              </a>
            </p>
          ) : null}
          <ProductFacts product={product} />
          <LabFacts product={product} />
          <div data-testid="product-price">
            <Price
              price={price.price}
              finalPrice={price.final_price}
              dealPrice={dealPrice}
              rules={display.rules}
              from={!child && price.from}
              measure={unit ? unitPriceMeasure(child ? child.size : product.size, infusedPotency(product)) : null}
              money={store.money}
              className="mt-4 text-2xl"
            />
            {chosen && qty > 1 ? <p className="text-sm text-stone-700">{`Each, when buying ${qty}`}</p> : null}
          </div>
          {deal && deal.words.length > 0 ? (
            <ul aria-label="Deals" data-testid="product-deals" className="mt-2 flex flex-wrap gap-2 text-sm">
              {deal.words.map((w) => (
                <li key={w} className="rounded-full bg-emerald-800 px-3 py-1 font-semibold text-white">
                  {w}
                </li>
              ))}
            </ul>
          ) : null}
          {chosen && chosen.offers.length > 0 ? (
            <ul aria-label="Quantity offers" data-testid="tier-offers" className="mt-2 flex flex-wrap gap-2 text-sm">
              {chosen.offers.map((o) => (
                <li key={o.qty} className="rounded-full bg-brand/10 px-3 py-1 font-medium text-brand-ink">
                  {`Buy ${o.qty}+: ${formatMoney(o.each, store.money)} each`}
                </li>
              ))}
            </ul>
          ) : null}
          <p className={`mt-1 font-medium ${STOCK_CLASSES[stock.status]}`}>{stock.label}</p>

          {configurable && choices.length > 0 ? (
            <Form method="get" className="mt-6" onSubmit={(e) => hydrated && e.preventDefault()}>
              <SizeSelector choices={choices} selectedSize={child?.size ?? null} onChoose={chooseSize} money={store.money} />
              {hydrated ? null : (
                <button type="submit" className="mt-3 inline-flex min-h-11 items-center rounded-full border border-stone-300 px-5 font-medium hover:bg-stone-100">
                  Choose size
                </button>
              )}
            </Form>
          ) : null}
          <div role="status" aria-live="polite" className={warning ? 'mt-3 text-sm font-medium text-red-700' : ''}>
            {warning}
          </div>
          {errors.variants ? (
            <p role="alert" className="mt-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-red-800">
              {errors.variants}
            </p>
          ) : null}

          {bundle ? (
            <BundleOptions.Component product={product} now={now} group={group} choice={bundleChoice} onChoose={chooseBundle} />
          ) : product.type_id === 'grouped' ? (
            <GroupedMembers.Component product={product} now={now} group={group} />
          ) : (
            <AddToCart
              product={product}
              child={child}
              choice={choices.find((c) => c.child?.sku === child?.sku) ?? null}
              now={now}
              qty={qty}
              onQtyChange={setQty}
              unitPrice={chosen?.final_price ?? null}
            />
          )}
          {/* Issue 30: a sold-out product or size can be watched (components/product/StockAlert.tsx). */}
          {!kit && stock.status === 'out_of_stock' ? (
            <StockAlert key={child?.id ?? product.id} productId={product.id} variantId={child?.id ?? null} back={productPath(product, child?.sku)} />
          ) : null}
          <div className="mt-4 flex flex-wrap gap-3">
            <SaveToggle kind="wishlist" product={saved} variant="full" />
            <SaveToggle kind="compare" product={saved} variant="full" />
          </div>

          {/* On the server the description's and tags' markup come from the fragment cache once rendered, keyed by their text. */}
          {product.description
            ? cachedElement(pageFragments, `about\u0000${product.description}`, 'section', { 'aria-labelledby': 'about-title', className: 'mt-8' }, () => (
                <AboutProduct description={product.description} />
              ))
            : null}
          {product.discovery_tags.length > 0
            ? cachedElement(pageFragments, `tags\u0000${JSON.stringify(product.discovery_tags)}`, 'section', { 'aria-labelledby': 'tags-title', className: 'mt-6' }, () => (
                <GoodToKnow tags={product.discovery_tags} />
              ))
            : null}
        </div>
      </div>
    </div>
  );
}

function AboutProduct({ description }: { description: string }) {
  return (
    <>
      <h2 id="about-title" className="text-lg font-semibold text-stone-900">
        About this product
      </h2>
      <div className="mt-2 space-y-3 leading-relaxed text-stone-800">
        {description
          .split(/\r?\n\s*\r?\n/)
          .filter((p) => p.trim())
          .map((p, i) => (
            <p key={i}>{p.trim()}</p>
          ))}
      </div>
    </>
  );
}

function GoodToKnow({ tags }: { tags: CatalogProduct['discovery_tags'] }) {
  return (
    <>
      <h2 id="tags-title" className="text-lg font-semibold text-stone-900">
        Good to know
      </h2>
      {groupDiscoveryTags(tags).map((group) => (
        <div key={group.key} className="mt-3">
          <h3 id={`tags-${group.key}`} className="text-sm font-semibold text-stone-700">
            {group.title}
          </h3>
          <ul aria-labelledby={`tags-${group.key}`} className="mt-1 flex flex-wrap gap-2">
            {group.tags.map((tag) => (
              <li key={tag} className="rounded-full bg-stone-100 px-3 py-1 text-sm text-stone-800">
                {tag}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </>
  );
}
