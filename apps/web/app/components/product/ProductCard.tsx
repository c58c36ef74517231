import { potencySummary, type ProductCard as ProductCardData } from '@verdant/domain';
import type { ReactNode } from 'react';
import { PathLink, StorePathLink } from '../store/StoreLink.tsx';
import { SaveToggle, SaveToggleButton } from '../saved/SaveToggle.tsx';
import { Price } from './Price.tsx';
import { productPath } from '../../lib/paths.ts';
import { useStorePath } from '../../lib/root-data.ts';
import { cardFragments } from '../../lib/fragment-cache.ts';
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
 * locale (the saved lists are empty on the server). Eager cards are rendered every time: React
 * preloads their image from the page's head, which a separately rendered fragment would not do.
 */
export function ProductCard({ product, eager = false, money }: Props) {
  const storePath = useStorePath();
  const path = productPath(product.sku, product.slug);
  if (!eager && cardFragments.enabled) {
    const href = storePath(path);
    const key = `${href}\u0000${money ? `${money.locale}|${money.currencyCode}` : ''}\u0000${JSON.stringify(product)}`;
    const html = cardFragments.get(key, () => (
      <CardContent product={product} path={path} money={money} link={<PathLink to={href}>{product.name}</PathLink>} fragment />
    ));
    if (html !== undefined) return <article className="card" dangerouslySetInnerHTML={{ __html: html }} />;
  }
  return (
    <article className="card">
      <CardContent
        product={product}
        path={path}
        eager={eager}
        money={money}
        link={
          <StorePathLink to={path} prefetch="intent">
            {product.name}
          </StorePathLink>
        }
      />
    </article>
  );
}

interface ContentProps extends Props {
  path: string;
  link: ReactNode;
  /** Rendered for the fragment cache: no hooks (the save buttons as the server renders them). */
  fragment?: boolean;
}

function CardContent({ product, eager = false, money, path, link, fragment = false }: ContentProps) {
  const badges = productBadges(product);
  const strain = strainLabel(product.strain_type);
  const thc = percentLabel(product.thc_percent);
  const cbd = percentLabel(product.cbd_percent);
  const potency = product.potency ? potencySummary(product.potency) : null;
  let actions: ReactNode;
  if (fragment) {
    actions = (
      <>
        <SaveToggleButton kind="wishlist" name={product.name} pressed={false} nameInLabel />
        <SaveToggleButton kind="compare" name={product.name} pressed={false} nameInLabel />
      </>
    );
  } else {
    const saved = { sku: product.sku, name: product.name, path, image: product.image, brand: product.brand };
    actions = (
      <>
        <SaveToggle kind="wishlist" product={saved} nameInLabel />
        <SaveToggle kind="compare" product={saved} nameInLabel />
      </>
    );
  }
  return (
    <>
      <div className="card-media">
        <img
          src={productImageSrc(product.image, THUMBNAIL_WIDTH, THUMBNAIL_HEIGHT)}
          alt={product.name}
          width={THUMBNAIL_WIDTH}
          height={THUMBNAIL_HEIGHT}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
        />
        {badges.length > 0 ? (
          <ul className="card-badges" aria-label="Highlights">
            {badges.map((b) => (
              <li key={b} className={`badge ${BADGE_CLASSES[b]}`}>
                {BADGE_LABELS[b]}
              </li>
            ))}
          </ul>
        ) : null}
        <div className="card-actions">{actions}</div>
      </div>
      <div className="card-body">
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
        <Price price={product.price} finalPrice={product.final_price} from={product.price_from} money={money} className="mt-auto pt-2" />
      </div>
    </>
  );
}
