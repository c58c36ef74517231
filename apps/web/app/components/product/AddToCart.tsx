import { useId } from 'react';
import { isSizeId, productPath, productPrice, sizeWeightGrams, type CatalogProduct, type ConfigurableChild } from '@verdant/domain';
import { CART_MESSAGES, NOTICE_ACTIONS } from '../../lib/cart-messages.ts';
import type { SizeChoice } from '../../lib/product-page.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import type { NewCartItem } from '../../state/cart-items.ts';
import type { CartOutcome } from '../../state/cart-store.ts';
import { notify } from '../../state/notifications.ts';
import { useCart } from '../../state/use-cart.ts';
import { QtyStepper } from '../cart/QtyStepper.tsx';

interface Props {
  product: CatalogProduct;
  /** The chosen child of a configurable (null: none available, or not configurable). */
  child: ConfigurableChild | null;
  /** The chosen size's prices (a configurable): the weight-deal price is what the cart charges. */
  choice: SizeChoice | null;
  now: Date;
  /** The quantity (the product page shows the price the cart charges for it). */
  qty: number;
  onQtyChange(qty: number): void;
  /** What the cart charges for one unit at `qty` (the page's chosenPriceView), when a unit is chosen. */
  unitPrice: number | null;
}

/** The cart line "Add to cart" makes of the product page's choice (spec §3 Cart item). */
export function newCartItem(
  product: CatalogProduct,
  child: ConfigurableChild | null,
  choice: SizeChoice | null,
  qty: number,
  now: Date,
  unitPrice: number | null = null,
): NewCartItem {
  // A simple product's size only weighs it for the limit; the server keeps size for configurables only.
  const ownWeight = product.unit_weight_grams_equivelent ?? (isSizeId(product.size) ? sizeWeightGrams(product.size) : null);
  return {
    sku: child?.sku ?? product.sku,
    qty,
    type_id: product.type_id,
    parentSku: child ? product.sku : null,
    size: child?.size ?? null,
    name: product.name,
    image: child?.image ?? product.image,
    path: productPath(product, child?.sku),
    price: unitPrice ?? (child && choice ? (choice.discountPrice ?? choice.finalPrice) : productPrice(product, now).final_price),
    tax_class_id: product.tax_class_id,
    uom: product.uom,
    canna_type: product.canna_type,
    unit_weight_grams_equivelent: child ? null : ownWeight,
    license_type: product.license_type,
  };
}

/** Spec §8 cart notices: each has OK; success notices also Proceed to checkout. */
export function noticeOutcome(outcome: CartOutcome): void {
  const ok = { label: NOTICE_ACTIONS.ok };
  if (outcome.kind === 'refused') {
    notify({ type: 'error', message: outcome.message, action1: ok });
    return;
  }
  if (outcome.kind === 'done') return;
  if (outcome.warning) notify({ type: 'warning', message: outcome.warning, action1: ok });
  const message = outcome.kind === 'added' ? CART_MESSAGES.productAdded : CART_MESSAGES.quantityUpdated;
  // The notice region is polite (role=status): the notice itself is the announcement.
  notify({ type: 'success', message, action1: ok, action2: { label: NOTICE_ACTIONS.checkout, href: '/checkout' } });
}

/**
 * Quantity and "Add to cart" (spec §4 Adding items) of a simple product or a configurable's chosen
 * size (kits have their own forms: BundleOptions, GroupedMembers). The whole flow — price, licence, limit and
 * stock checks, then the server — runs in the cart store; this reports its outcome as a notice.
 * Without JavaScript (or before the cart is read) the button is disabled and says why.
 */
export function AddToCart({ product, child, choice, now, qty, onQtyChange, unitPrice }: Props) {
  const hydrated = useHydrated();
  const loaded = useCart((s) => s.loaded);
  const isAdding = useCart((s) => s.isAdding);
  const addItem = useCart((s) => s.addItem);
  const noteId = useId();
  const unavailable = product.type_id === 'configurable' ? !child || !choice?.available : !product.stock.is_in_stock;
  const note = !hydrated ? 'Ordering online needs JavaScript. You can also reserve by phone.' : unavailable ? 'This choice is sold out.' : null;
  const disabled = !hydrated || !loaded || isAdding || unavailable;

  const add = async () => {
    const item = newCartItem(product, child, choice, qty, now, unitPrice);
    noticeOutcome(await addItem(item));
  };

  return (
    // data-notice-anchor: the notice this raises keeps clear of the quantity and the button.
    <div className="mt-6" data-notice-anchor="">
      <div className="flex flex-wrap items-end gap-3">
        <QtyStepper label={`Quantity of ${product.name}`} value={qty} onChange={onQtyChange} />
        <AddToCartButton disabled={disabled} busy={isAdding} describedBy={note ? noteId : undefined} onClick={() => void add()} />
      </div>
      {note ? (
        <p id={noteId} className="mt-2 text-sm text-stone-600">
          {note}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The product page's "Add to cart" (simple, configurable and bundle products alike). While the
 * cart is busy the button is aria-disabled, not disabled: a disabled button drops the keyboard
 * focus to <body>, and the shopper who just pressed it must stay on it.
 */
export function AddToCartButton({ disabled, busy, describedBy, onClick }: { disabled: boolean; busy: boolean; describedBy?: string; onClick(): void }) {
  return (
    <button
      type="button"
      disabled={disabled && !busy}
      aria-disabled={busy || undefined}
      aria-describedby={describedBy}
      aria-busy={busy || undefined}
      onClick={disabled || busy ? undefined : onClick}
      className="inline-flex min-h-12 items-center rounded-full bg-brand px-8 font-semibold text-on-brand hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-60 aria-disabled:cursor-progress aria-disabled:opacity-60"
    >
      Add to cart
    </button>
  );
}
