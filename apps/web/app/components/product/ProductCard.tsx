import {
  cardPriceMeasure,
  potencySummary,
  ratingText,
  saleBadgeWord,
  type DealDisplayRules,
  type ProductCard as ProductCardData,
  type ProductRating,
} from '@verdant/domain';
import type { ReactNode } from 'react';
import { PathLink, StorePathLink } from '../store/StoreLink.tsx';
import { SaveToggle, SaveToggleButton } from '../saved/SaveToggle.tsx';
import { Price } from './Price.tsx';
import { QuickAdd, QuickAddSlot } from './QuickAdd.tsx';
import { productPath } from '../../lib/paths.ts';
import { useStorePath } from '../../lib/root-data.ts';
import { cardFragments } from '../../lib/fragment-cache.ts';
import { useDealDisplay } from '../../lib/deal-view.ts';
import {
  BADGE_LABELS,
  percentLabel,
  productBadges,
  productImageSrc,
  strainLabel,
  THUMBNAIL_HEIGHT,
  THUMBNAIL_WIDTH,
  type BadgeKind,
} from '../../lib/product-view.ts';

const BADGE_CLASSES: Record<BadgeKind, string> = {
  sale: 'bg-red-700 text-white',
  new: 'bg-amber-100 text-amber-900',
  staff_pick: 'bg-violet-100 text-violet-900',
  best_seller: 'bg-sky-100 text-sky-900',
};

interface Props {
  product: ProductCardData;
  /** Above the fold: load the image eagerly. */
  eager?: boolean;
  money?: { currencyCode: string; locale: string };
}

/**
 * A product tile: the whole card is clickable through the name link (one link per card). Styled by
 * the `.card*` classes in app.css: one short class per element keeps a page of cards light.
 *
 * On the server a lazy-image card's inner markup comes from the fragment cache
 * (lib/fragment-cache.ts) once it has been rendered: the same bytes, written by React as one string.
 * Its key is everything the markup depends on — the card's fields, the resolved href and the money
 * locale (the saved lists are empty on the server). An eager card (above the fold) keeps its image
 * and badges rendered by React — React preloads that image from the page's head, which a separately
 * rendered fragment would not do — and takes its save buttons and its body from the cache.
 */
export function ProductCard({ product, eager = false, money }: Props) {
  const storePath = useStorePath();
  // Issue 28: the store's display rules for this shopper's licence (part of the fragment keys).
  const display = useDealDisplay();
  const rules = display.rules;
  const path = productPath(product.sku, product.slug);
  if (cardFragments.enabled) {
    const href = storePath(path);
    const keys = fragmentKeys(product, href, money, display.preset);
    const fragmentLink = <PathLink to={href}>{product.name}</PathLink>;
    if (!eager) {
      const html = cardFragments.get(keys.whole, () => (
        <CardContent product={product} path={path} money={money} link={fragmentLink} rules={rules} fragment />
      ));
      if (html !== undefined) return <article className="card" dangerouslySetInnerHTML={{ __html: html }} />;
    } else {
      const actions = cardFragments.get(keys.actions, () => <CardActions product={product} path={path} fragment />);
      const body = cardFragments.get(keys.body, () => <CardBody product={product} money={money} link={fragmentLink} rules={rules} fragment />);
      if (actions !== undefined && body !== undefined) {
        return (
          <article className="card">
            <div className="card-media">
              <CardImage product={product} eager />
              <CardBadges product={product} rules={rules} />
              <div className="card-actions" dangerouslySetInnerHTML={{ __html: actions }} />
            </div>
            <div className="card-body" dangerouslySetInnerHTML={{ __html: body }} />
          </article>
        );
      }
    }
  }
  return (
    <article className="card">
      <CardContent
        product={product}
        path={path}
        eager={eager}
        money={money}
        rules={rules}
        link={
          <StorePathLink to={path} prefetch="intent">
            {product.name}
          </StorePathLink>
        }
      />
    </article>
  );
}

interface FragmentKeys {
  whole: string;
  actions: string;
  body: string;
}

/**
 * Fragment-cache keys by card object, then by href and money. A listing the server's list cache keeps
 * (apps/server/src/ssr/services.ts) hands the same card objects to every render of its pages, so a
 * card's keys — and their hashes, which V8 keeps on the string — are made once instead of
 * serialising the card on every render (the category profile's "card keys", issue 15). A key still
 * holds the card's whole JSON; cards are never changed in place (a changed product is a new card).
 */
const keysByCard = new WeakMap<ProductCardData, Map<string, FragmentKeys>>();

function fragmentKeys(product: ProductCardData, href: string, money: Props['money'], display: string): FragmentKeys {
  let byPlace = keysByCard.get(product);
  if (!byPlace) keysByCard.set(product, (byPlace = new Map()));
  const place = `${href}\u0000${money ? `${money.locale}|${money.currencyCode}` : ''}\u0000${display}`;
  let keys = byPlace.get(place);
  if (!keys) {
    const whole = `${place}\u0000${JSON.stringify(product)}`;
    byPlace.set(place, (keys = { whole, actions: `${whole}\u0000actions`, body: `${whole}\u0000body` }));
  }
  return keys;
}

interface ContentProps extends Props {
  path: string;
  rules: DealDisplayRules;
  link: ReactNode;
  /** Rendered for the fragment cache: no hooks (the save buttons as the server renders them). */
  fragment?: boolean;
}

function CardContent({ product, eager = false, money, path, link, rules, fragment = false }: ContentProps) {
  return (
    <>
      <div className="card-media">
        <CardImage product={product} eager={eager} />
        <CardBadges product={product} rules={rules} />
        <div className="card-actions">
          <CardActions product={product} path={path} fragment={fragment} />
        </div>
      </div>
      <div className="card-body">
        <CardBody product={product} money={money} link={link} rules={rules} fragment={fragment} />
      </div>
    </>
  );
}

function CardImage({ product, eager }: { product: ProductCardData; eager: boolean }) {
  return (
    <img
      src={productImageSrc(product.image, THUMBNAIL_WIDTH, THUMBNAIL_HEIGHT)}
      alt={product.name}
      width={THUMBNAIL_WIDTH}
      height={THUMBNAIL_HEIGHT}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
    />
  );
}

function CardBadges({ product, rules }: { product: ProductCardData; rules: DealDisplayRules }) {
  const badges = productBadges(product);
  if (badges.length === 0 && !product.deal) return null;
  return (
    <ul className="card-badges" aria-label="Highlights">
      {/* Issue 28: a deal live now ("Deal": never "sale" or "free"). */}
      {product.deal ? <li className="badge bg-emerald-800 text-white">Deal</li> : null}
      {badges.map((b) => (
        <li key={b} className={`badge ${BADGE_CLASSES[b]}`}>
          {b === 'sale' ? saleBadgeWord(rules) : BADGE_LABELS[b]}
        </li>
      ))}
    </ul>
  );
}

/** The save buttons; for the fragment cache without hooks, as the server renders them (saved lists are empty there). */
function CardActions({ product, path, fragment }: { product: ProductCardData; path: string; fragment: boolean }) {
  if (fragment) {
    return (
      <>
        <SaveToggleButton kind="wishlist" name={product.name} pressed={false} nameInLabel />
        <SaveToggleButton kind="compare" name={product.name} pressed={false} nameInLabel />
      </>
    );
  }
  const saved = { sku: product.sku, name: product.name, path, image: product.image, brand: product.brand };
  return (
    <>
      <SaveToggle kind="wishlist" product={saved} nameInLabel />
      <SaveToggle kind="compare" product={saved} nameInLabel />
    </>
  );
}

function CardBody({ product, money, link, rules, fragment = false }: { product: ProductCardData; money?: Props['money']; link: ReactNode; rules: DealDisplayRules; fragment?: boolean }) {
  const strain = strainLabel(product.strain_type);
  const thc = percentLabel(product.thc_percent);
  const cbd = percentLabel(product.cbd_percent);
  const potency = product.potency ? potencySummary(product.potency) : null;
  return (
    <>
      {product.brand ? <p className="card-brand">{product.brand}</p> : null}
      <h3 className="card-title">{link}</h3>
      {strain || thc || cbd ? (
        <p className="card-facts">
          {strain ? <span>{strain}</span> : null}
          {thc ? <span>THC {thc}</span> : null}
          {cbd ? <span>CBD {cbd}</span> : null}
        </p>
      ) : null}
      {potency ? <p className="card-facts">{potency}</p> : null}
      {product.rating ? <CardRating rating={product.rating} /> : null}
      {product.deal?.words.length ? <p className="card-deal">{product.deal.words[0]}</p> : null}
      <Price
        price={product.price}
        finalPrice={product.final_price}
        dealPrice={product.deal?.priceCents ?? null}
        rules={rules}
        from={product.price_from}
        measure={cardPriceMeasure(product)}
        money={money}
        className="mt-auto pt-2"
      />
      {/* Issue 30: quick add; in a fragment (and until the page runs) its empty, button-high slot. */}
      {fragment ? <QuickAddSlot product={product} /> : <QuickAdd product={product} money={money} />}
    </>
  );
}

/**
 * Issue 30: the approved reviews' average and count ("★★★★☆ 4.5 (12)"); a screen reader hears
 * "Rated 4.5 out of 5, 12 reviews". Only on a card whose data carries a rating (none when the store
 * shows no reviews), so it is part of the card's fragment-cache key.
 */
export function CardRating({ rating }: { rating: ProductRating }) {
  const full = Math.round(rating.average);
  return (
    <p className="card-rating">
      <span className="stars" aria-hidden="true">
        {'★'.repeat(full)}
        <span className="text-stone-500">{'☆'.repeat(5 - full)}</span>
      </span>
      <span aria-hidden="true">
        {rating.average.toFixed(1)} ({rating.count})
      </span>
      <span className="sr-only">{ratingText(rating)}</span>
    </p>
  );
}
