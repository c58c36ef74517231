import type { ReactNode } from 'react';
import { LICENSE_LABELS, type LicenseType } from '@verdant/domain';
import { Price } from '../product/Price.tsx';
import { StoreLink } from '../store/StoreLink.tsx';
import type { CompareRow } from '../../lib/product-page.ts';
import { percentLabel, productImageSrc, strainLabel, THUMBNAIL_HEIGHT, THUMBNAIL_WIDTH } from '../../lib/product-view.ts';

interface Props {
  rows: CompareRow[];
  money: { currencyCode: string; locale: string };
  onRemove: (row: CompareRow) => void;
}

function licenseText(value: CompareRow['licenseType']): string {
  return value === 'both' ? 'Recreational and medical' : LICENSE_LABELS[value as LicenseType];
}

const dash = (
  <>
    <span aria-hidden="true">—</span>
    <span className="sr-only">Not given</span>
  </>
);

/** Products side by side: one column per product, one row (with a row header) per attribute. */
export function CompareTable({ rows, money, onRemove }: Props) {
  const attributes: [string, (r: CompareRow) => ReactNode][] = [
    ['Price', (r) => <Price price={r.price} finalPrice={r.finalPrice} from={r.priceFrom} money={money} />],
    ['Brand', (r) => r.brand ?? dash],
    ['Strain type', (r) => strainLabel(r.strainType) ?? dash],
    ['THC', (r) => percentLabel(r.thc) ?? dash],
    ['CBD', (r) => percentLabel(r.cbd) ?? dash],
    ['Sizes', (r) => (r.sizes.length ? r.sizes.join(', ') : dash)],
    ['Category', (r) => (r.categories.length ? r.categories.join(', ') : dash)],
    ['License type', (r) => licenseText(r.licenseType)],
    ['Good to know', (r) => (r.tags.length ? r.tags.join(', ') : dash)],
    ['Availability', (r) => (r.inStock ? 'In stock' : 'Out of stock')],
  ];
  return (
    <div role="region" aria-labelledby="compare-caption" tabIndex={0} className="overflow-x-auto rounded-2xl border border-stone-200 bg-white">
      <table className="w-full min-w-[36rem] border-collapse text-left text-sm">
        <caption id="compare-caption" className="sr-only">
          Products side by side
        </caption>
        <thead>
          <tr>
            <td className="w-36 p-3" />
            {rows.map((r) => (
              <th key={r.sku} scope="col" className="min-w-44 p-3 align-top font-normal">
                <img
                  src={productImageSrc(r.image, THUMBNAIL_WIDTH, THUMBNAIL_HEIGHT)}
                  alt=""
                  width={THUMBNAIL_WIDTH}
                  height={THUMBNAIL_HEIGHT}
                  loading="lazy"
                  className="aspect-[31/30] h-auto w-full max-w-40 rounded-xl bg-stone-100 object-cover"
                />
                <StoreLink to={r.path} className="mt-2 block font-semibold text-stone-900 underline-offset-4 hover:underline">
                  {r.name}
                </StoreLink>
                <button
                  type="button"
                  onClick={() => onRemove(r)}
                  className="mt-2 inline-flex min-h-11 items-center rounded-full border border-stone-300 px-3 text-sm font-medium text-stone-800 hover:bg-stone-100"
                >
                  Remove<span className="sr-only"> {r.name} from compare</span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {attributes.map(([label, cell]) => (
            <tr key={label} className="border-t border-stone-200">
              <th scope="row" className="p-3 align-top font-semibold text-stone-900">
                {label}
              </th>
              {rows.map((r) => (
                <td key={r.sku} className="p-3 align-top text-stone-800">
                  {cell(r)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
