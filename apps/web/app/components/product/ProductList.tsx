import type { ProductCard as ProductCardData } from '@verdant/domain';
import { ProductCard } from './ProductCard.tsx';

interface Props {
  id: string;
  title: string;
  products: ProductCardData[];
  /** How many leading cards load their image eagerly (above the fold). */
  eagerCount?: number;
  emptyText?: string;
  money?: { currencyCode: string; locale: string };
}

/** A titled section of product cards (home collections): 2 columns on phones up to 5 on desktop. */
export function ProductListSection({ id, title, products, eagerCount = 0, emptyText, money }: Props) {
  const headingId = `${id}-title`;
  return (
    <section aria-labelledby={headingId} className="mx-auto max-w-7xl px-4 pt-12 sm:px-6">
      <h2 id={headingId} className="font-display text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">
        {title}
      </h2>
      {products.length === 0 ? (
        <p className="mt-4 rounded-xl border border-dashed border-stone-300 bg-white px-4 py-6 text-stone-700">
          {emptyText ?? 'Nothing here right now. New products arrive every week, so check back soon.'}
        </p>
      ) : (
        <ul role="list" className="mt-5 grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 lg:grid-cols-4 xl:grid-cols-5">
          {products.map((p, i) => (
            <li key={p.sku}>
              <ProductCard product={p} eager={i < eagerCount} money={money} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
