import type { Route } from './+types/category';
import { ComingSoon } from '../components/page/ComingSoon.tsx';
import { pageMeta } from '../lib/meta.ts';
import { humanizeSlug } from '../lib/paths.ts';

/** /menu/{slug?} and /c/{slug} (spec §2): the slug defaults to `menu`. */
export function loader({ params }: Route.LoaderArgs) {
  const slug = params.slug || 'menu';
  return { slug, title: slug === 'menu' ? 'Menu' : humanizeSlug(slug) };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, { title: loaderData?.title });

export default function Category({ loaderData }: Route.ComponentProps) {
  return (
    <ComingSoon
      title={loaderData.title}
      what="The menu is coming:"
      features={[
        'Every product of this store for your licence type, by category',
        'Filters: size, sale, staff picks, best sellers, price, brand',
        'Sorting: Latest, Price: Low to high, Price: High to low',
        'Search with instant results, online and offline',
      ]}
    />
  );
}
