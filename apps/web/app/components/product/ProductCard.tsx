import { potencySummary, type ProductCard as ProductCardData } from '@verdant/domain';
import { StorePathLink } from '../store/StoreLink.tsx';
import { SaveToggle } from '../saved/SaveToggle.tsx';
import { Price } from './Price.tsx';
import { productPath } from '../../lib/paths.ts';
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
 */
export function ProductCard({ product, eager = false, money }: Props) {
  const path = productPath(product.sku, product.slug);
  const saved = { sku: product.sku, name: product.name, path, image: product.image, brand: product.brand };
  const badges = productBadges(product);
  const strain = strainLabel(product.strain_type);
  const thc = percentLabel(product.thc_percent);
  const cbd = percentLabel(product.cbd_percent);
  const potency = product.potency ? potencySummary(product.potency) : null;
  return (
    <article className="card">
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
        <div className="card-actions">
          <SaveToggle kind="wishlist" product={saved} nameInLabel />
          <SaveToggle kind="compare" product={saved} nameInLabel />
        </div>
      </div>
      <div className="card-body">
        {product.brand ? <p className="card-brand">{product.brand}</p> : null}
        <h3 className="card-title">
          <StorePathLink to={path} prefetch="intent">
            {product.name}
          </StorePathLink>
        </h3>
        {strain || thc || cbd ? (
          <p className="card-facts">
            {strain ? <span>{strain}</span> : null}
            {thc ? <span>THC {thc}</span> : null}
            {cbd ? <span>CBD {cbd}</span> : null}
          </p>
        ) : null}
        {potency ? <p className="card-facts">{potency}</p> : null}
        <Price
          price={product.price}
          finalPrice={product.final_price}
          from={product.price_from}
          money={money}
          className="mt-auto pt-2"
        />
      </div>
    </article>
  );
}
