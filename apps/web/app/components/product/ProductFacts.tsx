import { LICENSE_LABELS, type CatalogProduct, type LicenseType } from '@verdant/domain';
import { percentLabel, strainLabel } from '../../lib/product-view.ts';

/** Strain type, THC and CBD as a definition list. */
export function ProductFacts({ product }: { product: CatalogProduct }) {
  const facts: [string, string][] = [];
  const strain = strainLabel(product.strain_type);
  if (strain) facts.push(['Strain type', strain]);
  const thc = percentLabel(product.thc_percent);
  if (thc) facts.push(['THC', thc]);
  const cbd = percentLabel(product.cbd_percent);
  if (cbd) facts.push(['CBD', cbd]);
  if (product.license_type !== 'both') facts.push(['For', `${LICENSE_LABELS[product.license_type as LicenseType]} customers`]);
  if (facts.length === 0) return null;
  return (
    <dl className="mt-3 flex flex-wrap gap-2 text-sm">
      {facts.map(([term, value]) => (
        <div key={term} className="flex gap-1 rounded-full bg-stone-100 px-3 py-1">
          <dt className="text-stone-600">{term}</dt>
          <dd className="font-semibold text-stone-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
