import { formatMoney, LICENSE_LABELS, productPrice, type CatalogProduct, type LicenseType } from '@verdant/domain';
import { kitMembers } from '../../lib/product-page.ts';
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

/** Grouped and bundle products: their members and the summed price (spec §4 pricing). */
export function KitMembers({ product, now, money }: { product: CatalogProduct; now: Date; money: { currencyCode: string; locale: string } }) {
  if (product.type_id !== 'grouped' && product.type_id !== 'bundle') return null;
  const members = kitMembers(product, now);
  if (members.length === 0) return null;
  const total = productPrice(product, now);
  return (
    <section aria-labelledby="kit-title" className="mt-6 rounded-2xl border border-stone-200 bg-white p-4">
      <h2 id="kit-title" className="font-semibold text-stone-900">
        {product.type_id === 'bundle' ? 'In this bundle' : 'In this set'}
      </h2>
      <ul className="mt-2 divide-y divide-stone-200">
        {members.map((m) => (
          <li key={m.sku} className="flex items-baseline justify-between gap-3 py-2 text-sm">
            <span>
              {m.qty > 1 ? `${m.qty} × ` : ''}
              {m.name}
              {m.inStock ? null : <span className="ml-2 text-red-700">(out of stock)</span>}
            </span>
            <span className="tabular-nums">{formatMoney(Math.round(m.finalPrice * m.qty), money)}</span>
          </li>
        ))}
      </ul>
      <p className="mt-2 flex justify-between border-t border-stone-200 pt-2 font-semibold">
        <span>Together</span>
        <span className="tabular-nums">{formatMoney(total.final_price, money)}</span>
      </p>
    </section>
  );
}
