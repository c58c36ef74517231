import { useId, useMemo, useRef, useState } from 'react';
import { bundleChoiceProblem, formatMoney, type BundleChoice, type CatalogProduct } from '@verdant/domain';
import { bundleOptionViews, newBundleItem, type BundleOptionView, type KitChoiceMember } from '../../lib/product-page.ts';
import { useRootData } from '../../lib/root-data.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { announce } from '../../lib/announce.ts';
import { kitConflict } from '../../state/cart-items.ts';
import { useCart } from '../../state/use-cart.ts';
import { QtyStepper } from '../cart/QtyStepper.tsx';
import { AddToCartButton, noticeOutcome } from './AddToCart.tsx';

interface Props {
  product: CatalogProduct;
  now: Date;
  /** The shopper's customer group (pageCustomerGroup): member prices as the cart charges them. */
  group?: number;
  choice: BundleChoice;
  onChoose(choice: BundleChoice): void;
}

type Money = { currencyCode: string; locale: string };

const STOCK_CLASSES = { ok: 'text-stone-600', volatile: 'text-amber-800', out_of_stock: 'text-red-700' } as const;

/** `2 × Hemp Wick 10 ft`, its size, the price for the units in one bundle and its stock. */
function MemberText({ m, money }: { m: KitChoiceMember; money: Money }) {
  return (
    <span className="flex min-w-0 flex-1 flex-wrap items-baseline justify-between gap-x-3">
      <span className="min-w-0">
        <span className="font-medium text-stone-900">
          {m.qty > 1 ? `${m.qty} × ` : ''}
          {m.name}
        </span>
        <span className="block text-xs text-stone-600">
          {m.sizeLabel} · <span className={STOCK_CLASSES[m.stock.status]}>{m.stock.label}</span>
        </span>
      </span>
      <span className="text-sm tabular-nums">{formatMoney(Math.round(m.finalPrice * m.qty), money)}</span>
    </span>
  );
}

function OptionField({ view, chosen, onChange, money }: { view: BundleOptionView; chosen: readonly string[]; onChange(skus: string[]): void; money: Money }) {
  const legendId = useId();
  const name = `bundle-option-${view.option_id}`;
  return (
    <fieldset className="min-w-0 rounded-2xl border border-stone-200 bg-white p-4" data-option={view.option_id}>
      <legend id={legendId} className="px-1 text-sm font-semibold tracking-wide text-stone-900 uppercase">
        {view.title}
        {view.required ? null : <span className="ml-1 font-normal normal-case text-stone-600">(optional)</span>}
      </legend>
      {view.members.length === 0 ? <p className="text-sm text-red-700">None available right now.</p> : null}
      {view.type === 'select' ? (
        <div className="mt-1">
          <select
            name={name}
            aria-labelledby={legendId}
            aria-required={view.required || undefined}
            value={chosen[0] ?? ''}
            onChange={(e) => onChange(e.target.value ? [e.target.value] : [])}
            className="min-h-11 w-full rounded-xl border border-stone-300 bg-white px-3"
          >
            <option value="">{view.required ? `Choose ${view.title.toLowerCase()}` : 'None'}</option>
            {view.members.map((m) => (
              <option key={m.sku} value={m.sku} disabled={!m.available}>
                {m.qty > 1 ? `${m.qty} × ` : ''}
                {m.name} — {formatMoney(Math.round(m.finalPrice * m.qty), money)}
                {m.available ? '' : ' (out of stock)'}
              </option>
            ))}
          </select>
          {view.members
            .filter((m) => chosen.includes(m.sku))
            .map((m) => (
              <p key={m.sku} className="mt-2 flex text-sm">
                <MemberText m={m} money={money} />
              </p>
            ))}
        </div>
      ) : (
        <ul className="divide-y divide-stone-100">
          {view.members.map((m) => {
            const id = `${name}-${m.sku}`;
            const checked = chosen.includes(m.sku);
            return (
              <li key={m.sku} className="flex items-center gap-3 py-2">
                <input
                  id={id}
                  type={view.single ? 'radio' : 'checkbox'}
                  name={name}
                  value={m.sku}
                  checked={checked}
                  disabled={!m.available}
                  aria-required={view.single && view.required ? true : undefined}
                  onChange={(e) => {
                    if (view.single) onChange([m.sku]);
                    else onChange(e.target.checked ? [...chosen.filter((s) => s !== m.sku), m.sku] : chosen.filter((s) => s !== m.sku));
                  }}
                  className="h-5 w-5 shrink-0 accent-brand"
                />
                <label htmlFor={id} className={`flex min-h-11 flex-1 cursor-pointer items-center ${m.available ? '' : 'cursor-not-allowed opacity-80'}`}>
                  <MemberText m={m} money={money} />
                </label>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}

/**
 * A bundle's options (spec §3 bundle_options, §4 Pricing and Configuring): a fieldset per option
 * with its members, single choice for radio and select, any number for checkbox and multi; only
 * members with status 1 are listed and out-of-stock ones cannot be chosen (spec §5). The page's
 * price follows the choice (the domain's bundlePrice); "Add to cart" adds one line of the bundle
 * with its options, as the server's cart takes it, or says the bundle is not configured yet.
 */
export function BundleOptions({ product, now, group = 0, choice, onChoose }: Props) {
  const { store } = useRootData();
  const hydrated = useHydrated();
  const loaded = useCart((s) => s.loaded);
  const isAdding = useCart((s) => s.isAdding);
  const addItem = useCart((s) => s.addItem);
  const items = useCart((s) => s.items);
  const [qty, setQty] = useState(1);
  const [refusal, setRefusal] = useState<string | null>(null);
  const formRef = useRef<HTMLDivElement>(null);
  const noteId = useId();
  const views = useMemo(() => bundleOptionViews(product, now, group), [product, now, group]);
  const problem = bundleChoiceProblem(product.bundle_options, choice);
  const soldOut = views.some((v) => v.required && !v.members.some((m) => m.available));
  const note = !hydrated ? 'Ordering online needs JavaScript. You can also reserve by phone.' : soldOut ? 'This bundle is sold out.' : null;

  const choose = (optionId: number, skus: string[]) => {
    setRefusal(null);
    onChoose({ ...choice, [optionId]: skus });
  };

  const add = async () => {
    if (problem) {
      // The message is on screen already (role=alert); say it again and go to the first option to fix.
      announce(problem);
      const missing = views.find((v) => v.required && !(choice[v.option_id] ?? []).length) ?? views[0];
      formRef.current?.querySelector<HTMLElement>(`[data-option="${missing?.option_id}"] :is(input:not([disabled]), select)`)?.focus();
      return;
    }
    const item = newBundleItem(product, choice, qty, now, group);
    if (!item) {
      setRefusal('This bundle cannot be ordered online right now. Please ask us in store.');
      return;
    }
    if (kitConflict(items, item)) {
      setRefusal(`${product.name} is already in your cart with other choices. Change its quantity or remove it there first.`);
      return;
    }
    setRefusal(null);
    noticeOutcome(await addItem(item));
  };

  return (
    <div ref={formRef} className="mt-6 space-y-4">
      <h2 className="text-lg font-semibold text-stone-900">Build your bundle</h2>
      {views.map((v) => (
        <OptionField key={v.option_id} view={v} chosen={choice[v.option_id] ?? []} onChange={(skus) => choose(v.option_id, skus)} money={store.money} />
      ))}
      <div role="alert" className={problem || refusal ? 'rounded-xl border border-red-200 bg-red-50 px-4 py-3 font-medium text-red-800' : ''}>
        {problem ?? refusal}
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <QtyStepper label={`Quantity of ${product.name}`} value={qty} onChange={setQty} />
        <AddToCartButton disabled={!hydrated || !loaded || isAdding || soldOut} busy={isAdding} describedBy={note ? noteId : undefined} onClick={() => void add()} />
      </div>
      {note ? (
        <p id={noteId} className="text-sm text-stone-600">
          {note}
        </p>
      ) : null}
    </div>
  );
}
