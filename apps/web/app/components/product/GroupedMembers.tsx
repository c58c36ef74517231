import { useId, useMemo, useState } from 'react';
import { formatMoney, type CatalogProduct } from '@verdant/domain';
import { CART_MESSAGES, NOTICE_ACTIONS } from '../../lib/cart-messages.ts';
import { groupedMembers, initialGroupedQtys, newGroupedMemberItem } from '../../lib/product-page.ts';
import { useRootData } from '../../lib/root-data.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import type { CartOutcome } from '../../state/cart-store.ts';
import { notify } from '../../state/notifications.ts';
import { useCart } from '../../state/use-cart.ts';
import { QtyStepper } from '../cart/QtyStepper.tsx';

const STOCK_CLASSES = { ok: 'text-stone-600', volatile: 'text-amber-800', out_of_stock: 'text-red-700' } as const;

/** Said when every quantity is 0. */
export const NOTHING_CHOSEN = 'Choose a quantity of at least one product of this set.';

/**
 * A grouped product (spec §3, §4): its members — only those with status 1, out-of-stock ones
 * shown but not addable (spec §5) — each with its size, price, stock and a quantity. "Add to
 * cart" adds each chosen member as a line of its own, as the server sells a grouped set, one
 * after another (each checked for stock, licence and the purchase limit like any product).
 */
export function GroupedMembers({ product, now, group = 0 }: { product: CatalogProduct; now: Date; group?: number }) {
  const { store } = useRootData();
  const hydrated = useHydrated();
  const loaded = useCart((s) => s.loaded);
  const isAdding = useCart((s) => s.isAdding);
  const addItem = useCart((s) => s.addItem);
  const members = useMemo(() => groupedMembers(product, now, group), [product, now, group]);
  const [qtys, setQtys] = useState(() => initialGroupedQtys(members));
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const titleId = useId();
  const noteId = useId();
  const buyable = members.filter((m) => m.available);
  const chosen = buyable.filter((m) => (qtys[m.sku] ?? 0) > 0);
  const total = chosen.reduce((sum, m) => sum + m.finalPrice * (qtys[m.sku] ?? 0), 0);
  const note = !hydrated ? 'Ordering online needs JavaScript. You can also reserve by phone.' : buyable.length === 0 ? 'This set is sold out.' : null;

  const add = async () => {
    if (chosen.length === 0) {
      setProblem(NOTHING_CHOSEN);
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      const outcomes: { name: string; outcome: CartOutcome }[] = [];
      for (const m of chosen) outcomes.push({ name: m.name, outcome: await addItem(newGroupedMemberItem(product, m.member, qtys[m.sku], now, group)) });
      const ok = { label: NOTICE_ACTIONS.ok };
      const refused = outcomes.flatMap((o) => (o.outcome.kind === 'refused' ? [`${o.name}: ${o.outcome.message}`] : []));
      for (const message of refused) notify({ type: 'error', message, action1: ok });
      for (const o of outcomes) if ((o.outcome.kind === 'added' || o.outcome.kind === 'updated') && o.outcome.warning) notify({ type: 'warning', message: `${o.name}: ${o.outcome.warning}`, action1: ok });
      const done = outcomes.filter((o) => o.outcome.kind === 'added' || o.outcome.kind === 'updated');
      if (done.length) {
        const message = done.every((o) => o.outcome.kind === 'updated') ? CART_MESSAGES.quantityUpdated : CART_MESSAGES.productAdded;
        notify({ type: 'success', message, action1: ok, action2: { label: NOTICE_ACTIONS.checkout, href: '/checkout' } });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={titleId} className="mt-6">
      <fieldset className="min-w-0 rounded-2xl border border-stone-200 bg-white p-4">
        <legend id={titleId} className="px-1 text-sm font-semibold tracking-wide text-stone-900 uppercase">
          In this set
        </legend>
        <ul className="divide-y divide-stone-100">
          {members.map((m) => (
            <li key={m.sku} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="grouped-member" data-sku={m.sku}>
              <div className="min-w-0 flex-1">
                <p className="font-medium text-stone-900">{m.name}</p>
                <p className="text-sm text-stone-700">
                  {m.sizeLabel} · <span className="tabular-nums">{formatMoney(m.finalPrice, store.money)}</span>
                  {m.finalPrice < m.price ? (
                    <>
                      {' '}
                      <span className="sr-only">was </span>
                      <s className="text-stone-600">{formatMoney(m.price, store.money)}</s>
                    </>
                  ) : null}
                </p>
                <p className={`text-xs font-medium ${STOCK_CLASSES[m.stock.status]}`}>{m.stock.label}</p>
              </div>
              {m.available ? (
                <QtyStepper
                  label={`Quantity of ${m.name}`}
                  showLabel={false}
                  min={0}
                  value={qtys[m.sku] ?? 0}
                  onChange={(q) => {
                    setProblem(null);
                    setQtys((prev) => ({ ...prev, [m.sku]: q }));
                  }}
                />
              ) : (
                <p className="text-sm font-medium text-red-700">Not available</p>
              )}
            </li>
          ))}
        </ul>
        <p className="mt-2 flex justify-between border-t border-stone-200 pt-2 font-semibold">
          <span>Chosen</span>
          <span className="tabular-nums" data-testid="grouped-total">
            {formatMoney(total, store.money)}
          </span>
        </p>
      </fieldset>
      <div role="alert" className={problem ? 'mt-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 font-medium text-red-800' : ''}>
        {problem}
      </div>
      <button
        type="button"
        disabled={!hydrated || !loaded || isAdding || busy || buyable.length === 0}
        aria-describedby={note ? noteId : undefined}
        aria-busy={busy || undefined}
        onClick={() => void add()}
        className="mt-4 inline-flex min-h-12 items-center rounded-full bg-brand px-8 font-semibold text-on-brand hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-60"
      >
        Add to cart
      </button>
      {note ? (
        <p id={noteId} className="mt-2 text-sm text-stone-600">
          {note}
        </p>
      ) : null}
    </section>
  );
}
