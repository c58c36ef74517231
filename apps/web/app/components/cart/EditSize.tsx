import { useEffect, useId, useMemo, useState } from 'react';
import { chooseVariant, formatMoney, type CatalogProduct } from '@verdant/domain';
import { callApi } from '../../api/envelope.ts';
import { sizeChoices } from '../../lib/product-page.ts';
import { useRootData } from '../../lib/root-data.ts';
import type { CartItem } from '../../state/cart-items.ts';
import type { CartOutcome } from '../../state/cart-store.ts';
import { useCart } from '../../state/use-cart.ts';

interface Props {
  item: CartItem;
  /** The outcome of the change (null: cancelled) and the chosen size's label. */
  onDone(outcome: CartOutcome | null, label: string): void;
}

/**
 * Cart edit mode (spec §3, §4 Configuring an item): the line's product is read again, the sizes
 * that can be bought are offered, and the chosen size is re-resolved with the variant rule. The
 * cart store merges the line into a line of that size when there is one.
 */
export function EditSize({ item, onDone }: Props) {
  const { store } = useRootData();
  const mode = useCart((s) => s.editMode);
  const openEdit = useCart((s) => s.openEdit);
  const closeEdit = useCart((s) => s.closeEdit);
  const configureItem = useCart((s) => s.configureItem);
  const [product, setProduct] = useState<CatalogProduct | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const now = useMemo(() => new Date(), []);

  useEffect(() => {
    let live = true;
    callApi<CatalogProduct>('/api/catalog/product', { query: { sku: item.parentSku } })
      .then((p) => live && setProduct(p))
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [item.parentSku]);

  const choices = useMemo(() => (product ? sizeChoices(product, now).filter((c) => c.available) : []), [product, now]);
  const selected = mode?.selectedOptions.size ?? item.size;

  const save = async () => {
    if (!product || !mode) return;
    const choice = chooseVariant(product, { size: selected ?? undefined }, { now });
    const size = choices.find((c) => c.child?.sku === choice.child?.sku);
    if (!choice.child || !size) {
      setError(choice.warning ?? 'No such configuration for the product. Please do choose another combination of attributes.');
      return;
    }
    setBusy(true);
    const outcome = await configureItem(mode.key, {
      sku: choice.child.sku,
      size: choice.child.size,
      price: size.discountPrice ?? size.finalPrice,
      name: product.name,
      image: choice.child.image ?? product.image,
    });
    setBusy(false);
    closeEdit();
    onDone(outcome, size.label);
  };

  return (
    <div className="mt-3 rounded-xl border border-stone-300 bg-white p-3">
      {error ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      {!product && !error ? <p className="text-sm text-stone-600">Loading sizes…</p> : null}
      {product ? (
        <fieldset>
          <legend className="text-sm font-semibold text-stone-900">New size for {item.name}</legend>
          <div className="mt-2 grid grid-cols-2 gap-2">
            {choices.map((c) => (
              <label key={c.size} htmlFor={`${id}-${c.size}`} className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-stone-300 px-2 text-sm has-checked:border-brand has-checked:ring-2 has-checked:ring-brand">
                <input
                  id={`${id}-${c.size}`}
                  type="radio"
                  name={`${id}-size`}
                  value={c.size}
                  checked={selected === c.size}
                  onChange={() => mode && openEdit({ ...mode, selectedOptions: { size: c.size } })}
                  className="accent-brand"
                />
                <span>
                  {c.label} <span className="text-stone-600">{formatMoney(c.discountPrice ?? c.finalPrice, store.money)}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      <div className="mt-3 flex gap-2">
        <button
          type="button"
          disabled={!product || busy || selected === item.size}
          onClick={() => void save()}
          className="inline-flex min-h-11 items-center rounded-full bg-brand px-4 text-sm font-semibold text-on-brand hover:opacity-90 disabled:opacity-60"
        >
          Update size
        </button>
        <button
          type="button"
          onClick={() => {
            closeEdit();
            onDone(null, '');
          }}
          className="inline-flex min-h-11 items-center rounded-full border border-stone-300 px-4 text-sm font-medium hover:bg-stone-100"
        >
          Cancel
        </button>
      </div>
    </div>
  );
}
