import {
  cultivationFacts,
  formatDate,
  infusedPotency,
  LICENSE_LABELS,
  potencyLine,
  type CatalogProduct,
  type LicenseType,
} from '@verdant/domain';
import { cachedElement } from '../../lib/cached-element.tsx';
import { pageFragments } from '../../lib/fragment-cache.ts';
import { percentLabel, strainLabel } from '../../lib/product-view.ts';

/** Strain type, THC and CBD (per package and per piece for infused products), how it was grown. */
export function ProductFacts({ product }: { product: CatalogProduct }) {
  const facts: [string, string][] = [];
  const strain = strainLabel(product.strain_type);
  if (strain) facts.push(['Strain type', strain]);
  const thc = percentLabel(product.thc_percent);
  if (thc) facts.push(['THC', thc]);
  const cbd = percentLabel(product.cbd_percent);
  if (cbd) facts.push(['CBD', cbd]);
  const potency = infusedPotency(product);
  if (potency) {
    const perPackage = potencyLine(potency, 'package');
    if (perPackage) facts.push(['Per package', perPackage]);
    const perPiece = potencyLine(potency, 'piece');
    if (perPiece) facts.push([`Per piece (${potency.pieces} pieces)`, perPiece]);
  }
  facts.push(...cultivationFacts(product));
  if (product.license_type !== 'both') facts.push(['For', `${LICENSE_LABELS[product.license_type as LicenseType]} customers`]);
  if (facts.length === 0) return null;
  // On the server the list's markup comes from the fragment cache once rendered, keyed by the facts.
  return cachedElement(pageFragments, `facts\u0000${JSON.stringify(facts)}`, 'dl', { className: 'mt-3 flex flex-wrap gap-2 text-sm' }, () =>
    facts.map(([term, value]) => (
      <div key={term} className="flex gap-1 rounded-full bg-stone-100 px-3 py-1">
        <dt className="text-stone-600">{term}</dt>
        <dd className="font-semibold text-stone-900">{value}</dd>
      </div>
    )),
  );
}

/** The lab test date, batch and certificate of analysis a menu gives (nothing when it gives none). */
export function LabFacts({ product }: { product: Pick<CatalogProduct, 'lab_tested_at' | 'batch_number' | 'coa_url' | 'name'> }) {
  // A web address, or a path of this site (the demo's sample COA); never `javascript:`, `//host` or `/\\host`.
  const coa = product.coa_url && (/^https?:\/\//i.test(product.coa_url) || /^\/(?![/\\])/.test(product.coa_url)) ? product.coa_url : null;
  if (!product.lab_tested_at && !product.batch_number && !coa) return null;
  return (
    <section aria-labelledby="lab-facts-heading" className="mt-3 text-sm" data-testid="lab-facts">
      <h2 id="lab-facts-heading" className="sr-only">
        Lab results
      </h2>
      <dl className="flex flex-wrap gap-x-4 gap-y-1 text-stone-700">
        {product.lab_tested_at ? (
          <div className="flex gap-1">
            <dt>Lab tested</dt>
            <dd className="font-semibold text-stone-900">{formatDate(`${product.lab_tested_at.slice(0, 10)}T12:00:00Z`)}</dd>
          </div>
        ) : null}
        {product.batch_number ? (
          <div className="flex gap-1">
            <dt>Batch</dt>
            <dd className="font-semibold text-stone-900">{product.batch_number}</dd>
          </div>
        ) : null}
        {coa ? (
          <div className="flex gap-1">
            <dt className="sr-only">Certificate of analysis</dt>
            <dd>
              <a href={coa} target="_blank" rel="noopener noreferrer nofollow" className="font-semibold text-brand-ink underline">
                Certificate of analysis (COA)<span className="sr-only"> for {product.name}, opens in a new tab</span>
              </a>
            </dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}
