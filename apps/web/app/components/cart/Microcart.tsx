import { MINICART_COUNT_TYPE } from '../../lib/cart-config.ts';
import { miniCartCount } from '../../state/cart-items.ts';
import { useCart } from '../../state/use-cart.ts';
import { lazyPanel, usePanelLoad } from '../ui/LazyPanel.tsx';
import { CartIcon } from '../ui/Icons.tsx';

/** "Cart, 3 items": the name of the header button, whatever the screen width. */
export function cartButtonName(count: number): string {
  return `Cart, ${count} ${count === 1 ? 'item' : 'items'}`;
}

const Microcart = lazyPanel(() => import('./MicrocartPanel.tsx').then((m) => m.MicrocartPanel));

/**
 * The header's cart button and the microcart panel (spec §2 UI flag microcart: opening it turns
 * the overlay on). The count is the mini-cart count of spec §4 (MINICART_COUNT_TYPE). The panel
 * (./MicrocartPanel.tsx) loads the first time it is opened, from here or from anywhere else that
 * sets the cart's `microcartOpen`.
 */
export function CartButton() {
  const count = useCart((s) => miniCartCount(s.items, MINICART_COUNT_TYPE));
  const open = useCart((s) => s.microcartOpen);
  const setOpen = useCart((s) => s.setMicrocart);
  const load = usePanelLoad(open);
  return (
    <>
      <CartButtonView count={count} onOpen={() => setOpen(true)} onPreload={Microcart.preload} />
      <Microcart.Panel load={load} onLoadError={() => setOpen(false)} open={open} onClose={() => setOpen(false)} />
    </>
  );
}

/** The cart's header button (no hooks: the header's cached part writes it, with no handlers, as the server renders it). */
export function CartButtonView({ count, onOpen, onPreload }: { count: number; onOpen?: () => void; onPreload?: () => void }) {
  return (
    <button
      type="button"
      aria-haspopup="dialog"
      aria-label={cartButtonName(count)}
      onClick={onOpen}
      onPointerEnter={onPreload}
      onFocus={onPreload}
      className="relative inline-flex min-h-11 min-w-11 items-center justify-center gap-2 rounded-full border border-stone-300 px-3 text-sm font-medium text-stone-800 hover:bg-stone-100"
    >
      <CartIcon />
      <span className="sr-only sm:not-sr-only">Cart</span>
      {count > 0 ? (
        <span className="inline-flex min-w-5 items-center justify-center rounded-full bg-brand px-1.5 text-xs font-semibold text-on-brand">{count}</span>
      ) : null}
    </button>
  );
}
