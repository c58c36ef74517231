import type { Route } from './+types/compare';
import { ComingSoon } from '../components/page/ComingSoon.tsx';
import { pageMeta } from '../lib/meta.ts';

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, { title: 'Compare products', noindex: true });

/** /compare (spec §2): placeholder. */
export default function Compare() {
  return (
    <ComingSoon
      title="Compare products"
      what="Product comparison is coming:"
      features={[
        'Put products side by side: brand, strain type, THC and CBD',
        'Compare sizes and prices per gram',
        'Your list is kept on this device, even offline',
      ]}
    />
  );
}
