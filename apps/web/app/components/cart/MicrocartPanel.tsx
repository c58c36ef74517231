import { useId, useRef, useState } from 'react';
import { CART_MESSAGES } from '../../lib/cart-messages.ts';
import { announce } from '../../lib/announce.ts';
import { lineKey } from '../../state/cart-items.ts';
import { useCart, useCartTotals } from '../../state/use-cart.ts';
import { Announcer } from '../feedback/Announcer.tsx';
import { StoreLink } from '../store/StoreLink.tsx';
import { Dialog, SIDE_PANEL_CLASS } from '../ui/Dialog.tsx';
import { CloseButton } from '../ui/CloseButton.tsx';
import { CartLine } from './CartLine.tsx';
import { CouponForm } from './CouponForm.tsx';
import { LimitMeters } from './LimitMeters.tsx';
import { TotalsSummary } from './TotalsSummary.tsx';
import { DealNotes } from './DealNotes.tsx';

export const MICROCART_TITLE = 'Your cart';

/**
 * The microcart panel (spec §2 UI flag microcart), loaded the first time the cart button opens it
 * (./Microcart.tsx). A modal dialog: focus stays inside, Escape closes it, focus returns to the button.
 */
export function MicrocartPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      labelledBy="microcart-title"
      className={SIDE_PANEL_CLASS}
    >
      <MicrocartBody onClose={onClose} />
    </Dialog>
  );
}

function MicrocartBody({ onClose }: { onClose: () => void }) {
  const items = useCart((s) => s.items);
  const sync = useCart((s) => s.sync);
  const clear = useCart((s) => s.clear);
  const view = useCartTotals();
  const titleRef = useRef<HTMLHeadingElement>(null);
  const [confirmClear, setConfirmClear] = useState(false);
  const checkoutNote = useId();
  const refocus = () => queueMicrotask(() => titleRef.current?.focus());
  const blocked = items.length === 0 ? CART_MESSAGES.emptyCartCheckout : view.over ? view.overMessage : null;

  return (
    <div className="flex min-h-full flex-col p-4 sm:p-6">
      {/* The page behind a modal dialog is inert: cart changes are announced from in here. */}
      <Announcer />
      <div className="flex items-center justify-between gap-4">
        <h2 id="microcart-title" ref={titleRef} tabIndex={-1} className="font-display text-2xl font-bold">
          {MICROCART_TITLE}
        </h2>
        <CloseButton onClose={onClose} label="Close cart" />
      </div>
      {sync !== 'idle' ? (
        <p role="status" className="mt-3 rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
          {sync === 'disabled' ? CART_MESSAGES.syncDisabled : CART_MESSAGES.unreachable}
        </p>
      ) : null}
      {items.length === 0 ? (
        <div className="mt-6 text-stone-700">
          <p>Your cart is empty.</p>
          <p className="mt-3">
            <StoreLink to="/menu" className="font-semibold text-brand-ink underline underline-offset-4">
              Browse the menu
            </StoreLink>
          </p>
        </div>
      ) : (
        <>
          <ul aria-label="Cart items" className="mt-2 divide-y divide-stone-200">
            {items.map((item) => (
              <CartLine
                key={lineKey(item)}
                item={item}
                rowTotal={view.rowTotals.get(lineKey(item)) ?? item.price * item.qty}
                deal={view.lineDeals?.get(lineKey(item)) ?? null}
                onRemoved={refocus}
              />
            ))}
          </ul>
          <DealNotes notes={view.dealNotes} />
          <div className="mt-2 space-y-4">
            <CouponForm appliedCode={view.couponCode} />
            <TotalsSummary view={view} />
            <LimitMeters />
          </div>
        </>
      )}
      <div className="mt-auto space-y-3 pt-6">
        {blocked ? (
          <>
            <button type="button" aria-disabled="true" aria-describedby={checkoutNote} className="flex min-h-12 w-full cursor-not-allowed items-center justify-center rounded-full bg-stone-300 px-6 font-semibold text-stone-700">
              Proceed to checkout
            </button>
            <p id={checkoutNote} className="text-sm text-stone-700">
              {blocked}
            </p>
          </>
        ) : (
          <StoreLink to="/checkout" className="flex min-h-12 w-full items-center justify-center rounded-full bg-brand px-6 font-semibold text-on-brand hover:opacity-90">
            Proceed to checkout
          </StoreLink>
        )}
        {items.length > 0 ? (
          confirmClear ? (
            <div role="group" aria-label="Clear cart?" className="rounded-xl bg-red-50 p-3 text-sm">
              <p className="font-medium">Remove every product from your cart?</p>
              <div className="mt-2 flex gap-2">
                <button
                  type="button"
                  autoFocus
                  onClick={async () => {
                    setConfirmClear(false);
                    refocus();
                    await clear();
                    announce('Your cart is now empty.');
                  }}
                  className="inline-flex min-h-11 items-center rounded-full bg-red-700 px-4 font-semibold text-white hover:bg-red-800"
                >
                  Yes, clear cart
                </button>
                <button type="button" onClick={() => setConfirmClear(false)} className="inline-flex min-h-11 items-center rounded-full border border-stone-300 bg-white px-4 font-medium hover:bg-stone-100">
                  Keep my cart
                </button>
              </div>
            </div>
          ) : (
            <button type="button" onClick={() => setConfirmClear(true)} className="inline-flex min-h-11 items-center font-medium text-stone-700 underline underline-offset-4 hover:text-stone-900">
              Clear cart
            </button>
          )
        ) : null}
      </div>
    </div>
  );
}
