import { useEffect, useRef, useState } from 'react';
import { formatMoney, sizeLongLabel } from '@verdant/domain';
import { announce } from '../../lib/announce.ts';
import { productImageSrc, SMALL_IMAGE_SIZE } from '../../lib/product-view.ts';
import { useRootData } from '../../lib/root-data.ts';
import { lineKey, lineLabel, type CartItem } from '../../state/cart-items.ts';
import type { CartOutcome } from '../../state/cart-store.ts';
import { useCart } from '../../state/use-cart.ts';
import { StoreLink } from '../store/StoreLink.tsx';
import { EditSize } from './EditSize.tsx';
import { LineDeal, shownLineTotal } from './LineDeal.tsx';
import { useDealDisplay } from '../../lib/deal-view.ts';
import { QtyStepper } from './QtyStepper.tsx';

interface Props {
  item: CartItem;
  rowTotal: number;
  /** Issue 28: the deal on this line as the server judged it: its words (null: price only) and its discount. */
  deal?: { reason: string | null; discount: number } | null;
  /** Called after the line is gone, to put focus somewhere that still exists. */
  onRemoved(): void;
}

const linkButton = 'inline-flex min-h-11 items-center text-sm font-medium text-stone-700 underline underline-offset-4 hover:text-stone-950';

/**
 * One cart line (spec §3 Cart item): 150×150 thumbnail, name, size (a bundle: its members), quantity, line price, stock
 * state, "Change size" (cart edit mode) and "Remove" with a confirmation step (spec §4 Removing).
 * When the store refuses a change, the line comes back as it was and says why, here.
 */
export function CartLine({ item, rowTotal, deal = null, onRemoved }: Props) {
  const { store } = useRootData();
  const { rules } = useDealDisplay();
  const key = lineKey(item);
  const setQty = useCart((s) => s.setQty);
  const removeItem = useCart((s) => s.removeItem);
  const editing = useCart((s) => s.editMode?.key === key);
  const openEdit = useCart((s) => s.openEdit);
  const [confirming, setConfirming] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const removeRef = useRef<HTMLButtonElement>(null);
  const editRef = useRef<HTMLButtonElement>(null);
  // The accessible name of the line's controls tells two sizes of one product apart.
  const name = lineLabel(item);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  const report = (outcome: CartOutcome, done: string) => {
    if (outcome.kind === 'refused') {
      setRefusal(outcome.message); // a role=alert paragraph: read out when it appears
    } else {
      setRefusal(null);
      announce(done);
    }
  };

  return (
    <li className="py-4" data-testid="cart-line" data-sku={item.sku}>
      <div className="flex gap-3">
        <img
          src={productImageSrc(item.image, SMALL_IMAGE_SIZE, SMALL_IMAGE_SIZE)}
          alt=""
          width={SMALL_IMAGE_SIZE}
          height={SMALL_IMAGE_SIZE}
          className="h-20 w-20 shrink-0 rounded-lg bg-stone-100 object-cover"
        />
        <div className="min-w-0 flex-1">
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <p className="font-semibold text-stone-900">
                {item.path ? (
                  <StoreLink to={item.path} className="hover:underline">
                    {item.name}
                  </StoreLink>
                ) : (
                  item.name
                )}
              </p>
              {item.size != null ? <p className="text-sm text-stone-700">Size {sizeLongLabel(item.size)}</p> : null}
              {item.kit?.length ? (
                <ul aria-label={`In ${item.name}`} className="mt-1 text-sm text-stone-700" data-testid="kit-members">
                  {item.kit.map((m) => (
                    <li key={m.sku}>
                      {m.qty > 1 ? `${m.qty} × ` : ''}
                      {m.name}
                    </li>
                  ))}
                </ul>
              ) : null}
              <p className="text-xs text-stone-600">{formatMoney(item.price, store.money)} each</p>
            </div>
            <p className="shrink-0 font-semibold tabular-nums">
              <span className="sr-only">Line total </span>
              {formatMoney(shownLineTotal(rowTotal, deal, rules), store.money)}
            </p>
          </div>
          {/* Issue 28: the deal that touched the line; the resulting price alone where the rules forbid amounts off. */}
          {deal ? <LineDeal deal={deal} rowTotal={rowTotal} /> : null}
          {item.errors?.stock ? <p className="mt-1 text-sm font-medium text-red-700">{item.errors.stock}</p> : null}
          {!item.errors?.stock && item.info?.stock ? <p className="mt-1 text-sm text-brand-ink">{item.info.stock}</p> : null}
          <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1">
            <QtyStepper
              label={`Quantity of ${name}`}
              showLabel={false}
              value={item.qty}
              onChange={async (qty) => report(await setQty(key, qty), `Quantity of ${name} is now ${qty}.`)}
            />
            {item.type_id === 'configurable' && item.parentSku && !editing ? (
              <button
                ref={editRef}
                type="button"
                className={linkButton}
                onClick={() => openEdit({ key, qty: item.qty, selectedOptions: { size: item.size ?? undefined } })}
              >
                Change size<span className="sr-only"> of {name}</span>
              </button>
            ) : null}
            {!confirming ? (
              <button ref={removeRef} type="button" className={linkButton} onClick={() => setConfirming(true)}>
                Remove<span className="sr-only"> {name}</span>
              </button>
            ) : null}
          </div>
          {confirming ? (
            <div role="group" aria-label={`Remove ${name}?`} className="mt-2 rounded-xl bg-red-50 p-3 text-sm">
              <p className="font-medium text-stone-900">Remove {name} from your cart?</p>
              <div className="mt-2 flex gap-2">
                <button
                  ref={confirmRef}
                  type="button"
                  className="inline-flex min-h-11 items-center rounded-full bg-red-700 px-4 font-semibold text-white hover:bg-red-800"
                  onClick={async () => {
                    onRemoved();
                    report(await removeItem(key), `${name} removed from your cart.`);
                  }}
                >
                  Yes, remove
                </button>
                <button
                  type="button"
                  className="inline-flex min-h-11 items-center rounded-full border border-stone-300 bg-white px-4 font-medium hover:bg-stone-100"
                  onClick={() => {
                    setConfirming(false);
                    queueMicrotask(() => removeRef.current?.focus());
                  }}
                >
                  Keep it
                </button>
              </div>
            </div>
          ) : null}
          {editing && item.parentSku ? (
            <EditSize
              item={item}
              onDone={(outcome, label) => {
                if (outcome) report(outcome, `${name} changed to ${label}.`);
                queueMicrotask(() => editRef.current?.focus());
              }}
            />
          ) : null}
          {refusal ? (
            <p role="alert" className="mt-2 rounded-lg bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
              {refusal}
            </p>
          ) : null}
        </div>
      </div>
    </li>
  );
}
