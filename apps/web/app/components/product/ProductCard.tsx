import type { ProductCard as ProductCardData } from '@verdant/domain';
import { StoreLink } from '../store/StoreLink.tsx';
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

/** A product tile: the whole card is clickable through the name link (one link per card). */
export function ProductCard({ product, eager = false, money }: Props) {
  const path = productPath(product.sku, product.slug);
  const saved = { sku: product.sku, name: product.name, path, image: product.image, brand: product.brand };
  const badges = productBadges(product);
  const strain = strainLabel(product.strain_type);
  const thc = percentLabel(product.thc_percent);
  const cbd = percentLabel(product.cbd_percent);
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm motion-safe:transition-shadow hover:shadow-md focus-within:shadow-md">
      <div className="relative aspect-[31/30] bg-stone-100">
        <img
          src={productImageSrc(product.image, THUMBNAIL_WIDTH, THUMBNAIL_HEIGHT)}
          alt={product.name}
          width={THUMBNAIL_WIDTH}
          height={THUMBNAIL_HEIGHT}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          className="h-full w-full object-cover"
        />
        {badges.length > 0 ? (
          <ul className="absolute right-14 bottom-2 left-2 flex flex-wrap gap-1" aria-label="Highlights">
            {badges.map((b) => (
              <li key={b} className={`rounded-full px-2 py-0.5 text-xs font-semibold ${BADGE_CLASSES[b]}`}>
                {BADGE_LABELS[b]}
              </li>
            ))}
          </ul>
        ) : null}
        <div className="absolute top-2 right-2 flex flex-col gap-2">
          <SaveToggle kind="wishlist" product={saved} nameInLabel />
          <SaveToggle kind="compare" product={saved} nameInLabel />
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-1 p-3 sm:p-4">
        {product.brand ? <p className="text-xs font-medium tracking-wide text-stone-600 uppercase">{product.brand}</p> : null}
        <h3 className="text-[0.95rem] leading-snug font-semibold text-stone-900">
          <StoreLink
            to={path}
            className="rounded-sm after:absolute after:inset-0 after:content-[''] group-hover:underline"
            prefetch="intent"
          >
            {product.name}
          </StoreLink>
        </h3>
        {strain || thc || cbd ? (
          <p className="flex flex-wrap gap-x-2 text-xs text-stone-600">
            {strain ? <span>{strain}</span> : null}
            {thc ? <span>THC {thc}</span> : null}
            {cbd ? <span>CBD {cbd}</span> : null}
          </p>
        ) : null}
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
