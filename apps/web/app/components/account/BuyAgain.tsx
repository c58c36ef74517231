/**
 * Buy again (issue 30), on the order history and on each order's page: one tap puts a past order's
 * items back in the cart at today's prices (the server adds them through the cart's own checks,
 * apps/server/src/cart/buy-again.ts), then says plainly what changed — a new price, a sold-out
 * product with up to 2 similar ones, a product no longer sold, what a purchase limit left out.
 * Offline it asks nothing and says that it needs a connection.
 */
import { useRef, useState } from 'react';
import type { BuyAgainAnswer } from '../../api/cart.ts';
import { CART_MESSAGES } from '../../lib/cart-messages.ts';
import { newIdempotencyKey } from '../../state/place-order.ts';
import { useCartApi } from '../../state/use-cart.ts';
import { StoreLink } from '../store/StoreLink.tsx';
import { linkButton, secondaryButton } from './ui.tsx';

export type BuyAgainView = { orderId: string; answer: BuyAgainAnswer } | { orderId: string; message: string };

/** One Buy again at a time; the answer (or the reason nothing was asked) for the panel. */
export function useBuyAgain() {
  const cart = useCartApi();
  const [busy, setBusy] = useState<string | null>(null);
  const [view, setView] = useState<BuyAgainView | null>(null);
  const running = useRef(false);
  const run = async (orderId: string) => {
    if (running.current) return;
    running.current = true;
    setBusy(orderId);
    setView(null);
    try {
      // One key per tap: a retry of this tap (a lost answer) never adds the order twice.
      const outcome = await cart.getState().buyAgain(orderId, newIdempotencyKey());
      setView(outcome.kind === 'done' ? { orderId, answer: outcome.answer } : { orderId, message: outcome.message });
    } finally {
      running.current = false;
      setBusy(null);
    }
  };
  return { busy, view, run, openCart: () => cart.getState().setMicrocart(true) };
}

export function BuyAgainButton({ orderId, busy, onClick, labelled }: { orderId: string; busy: string | null; onClick(): void; labelled?: boolean }) {
  return (
    <button type="button" className={secondaryButton} onClick={onClick} disabled={busy != null} aria-busy={busy === orderId ? true : undefined}>
      {busy === orderId ? 'Adding…' : 'Buy again'}
      {labelled ? <span className="sr-only"> order {orderId}</span> : null}
    </button>
  );
}

/** What Buy again did, read out when it arrives (a polite live region that is always there). */
export function BuyAgainResult({ view, openCart }: { view: BuyAgainView | null; openCart(): void }) {
  return (
    <div role="status" aria-live="polite" data-testid="buy-again-result">
      {view ? (
        'message' in view ? (
          <p className="rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900">{view.message}</p>
        ) : (
          <Answer answer={view.answer} openCart={openCart} />
        )
      ) : null}
    </div>
  );
}

function Answer({ answer, openCart }: { answer: BuyAgainAnswer; openCart(): void }) {
  const changed = answer.lines.filter((l) => l.message);
  const units = answer.added;
  return (
    <div className="space-y-3 rounded-xl border border-stone-200 bg-stone-50 px-4 py-3 text-sm text-stone-800">
      <p className="font-semibold text-stone-900">
        {units > 0 ? `Added ${units} ${units === 1 ? 'item' : 'items'} from order ${answer.order_id} to your cart, at today’s prices.` : CART_MESSAGES.buyAgainNothing}
      </p>
      {changed.length > 0 ? (
        <ul className="list-disc space-y-2 pl-5">
          {changed.map((l) => (
            <li key={l.sku}>
              {l.message}
              {l.similar.length > 0 ? (
                <>
                  {' '}— similar:{' '}
                  {l.similar.map((s, i) => (
                    <span key={s.sku}>
                      {i > 0 ? ', ' : null}
                      <StoreLink to={s.url} className="font-medium text-brand-ink underline">
                        {s.name}
                      </StoreLink>
                    </span>
                  ))}
                </>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {units > 0 ? (
        <button type="button" className={linkButton} onClick={openCart}>
          See your cart
        </button>
      ) : null}
    </div>
  );
}
