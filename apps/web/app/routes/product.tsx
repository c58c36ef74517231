import type { Route } from './+types/product';
import { ComingSoon } from '../components/page/ComingSoon.tsx';
import { pageMeta } from '../lib/meta.ts';
import { humanizeSlug } from '../lib/paths.ts';

export function loader({ params }: Route.LoaderArgs) {
  return {
    title: humanizeSlug(params.slug),
    parentSku: params.parentSku,
    childSku: params.childSku ?? null,
  };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, { title: loaderData?.title });

/** /p/{parentSku}/{slug}/{childSku?} (spec §2): placeholder until the catalogue lands. */
export default function Product({ loaderData }: Route.ComponentProps) {
  return (
    <ComingSoon
      title={loaderData.title}
      eyebrow={`Item ${loaderData.childSku ?? loaderData.parentSku}`}
      what="Product pages are coming:"
      features={[
        'Photo gallery',
        'Sizes from 1 g to 1 oz, with prices and weight discounts',
        'Brand, strain type, THC and CBD',
        'Stock for this store and add to cart',
      ]}
    />
  );
}
