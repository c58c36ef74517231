import { useEffect, useId, useRef } from 'react';
import type { CartLimitMeter, CartLimits } from '../../api/cart.ts';
import { announce } from '../../lib/announce.ts';
import { freshLimits, isOwnLimitModel } from '../../lib/cart-view.ts';
import { useCart } from '../../state/use-cart.ts';

/**
 * The cart's purchase-limit meters (issue 14, purchase-limit buckets), from the server's answer
 * (GET /api/cart/limits, asked after every cart change by the cart store): one per bucket of the
 * store's model — its label, what the cart and the customer's earlier orders in the window count,
 * the cap in the bucket's unit and the window in words — and, when the cart is over, which bucket,
 * by how much and what to remove. A guest reads that only this order is counted.
 *
 * Decisions where the issue is silent:
 *  - A store that keeps today's single per-order limit shows no meters here: the order summary's
 *    THC-equivalent line is that meter already (spec §3), and its message stays the spec's.
 *  - Each meter is a <meter> named by its bucket, with the same figures as text beside it (a meter's
 *    value alone is not read the same way by every screen reader).
 *  - A change of the figures is announced politely once the server has answered for the cart as it
 *    now is; the over-limit text is a role=alert, read out when it appears.
 */
export function LimitMeters({ headingLevel = 3 }: { headingLevel?: 2 | 3 }) {
  const items = useCart((s) => s.items);
  const token = useCart((s) => s.token);
  const limits = useCart((s) => s.limits);
  const limitsHash = useCart((s) => s.limitsHash);
  const fresh = freshLimits({ items, token, totals: null, totalsHash: null, limits, limitsHash });
  const shown = limits && isOwnLimitModel(limits) ? limits : null;
  const titleId = useId();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  // Announce the meters when they change after the first answer (a shopper's change moved them).
  const said = useRef<string | null>(null);
  const summary = shown ? shown.meters.map((m) => `${m.label}: ${m.text}`).join('; ') : null;
  useEffect(() => {
    if (summary == null) return;
    if (said.current != null && said.current !== summary) announce(`Purchase limits: ${summary}.`);
    said.current = summary;
  }, [summary]);

  if (!shown) {
    // A default store: only the guest notice, when the server gives one (a per-order limit has none).
    return limits?.guest_notice ? <GuestNotice text={limits.guest_notice} /> : null;
  }
  return (
    <section aria-labelledby={titleId} className="rounded-2xl bg-white p-4 ring-1 ring-stone-200" data-testid="limit-meters">
      <Heading id={titleId} className="text-base font-semibold text-stone-900">
        Purchase limits
      </Heading>
      <ul className="mt-3 space-y-3 text-sm">
        {shown.meters.map((m) => (
          <MeterRow key={m.bucket} meter={m} />
        ))}
      </ul>
      <div role="alert">{fresh && !fresh.ok ? <Over limits={fresh} /> : null}</div>
      {shown.guest_notice ? <GuestNotice text={shown.guest_notice} /> : null}
    </section>
  );
}

/**
 * The unit's symbol, as the domain's UNIT_SYMBOL has it (not imported: limits/model.ts builds its zod
 * schemas when loaded, which would bring zod into the cart's chunk).
 */
const UNIT_SYMBOL: Readonly<Record<CartLimitMeter['unit'], string>> = {
  flower_g: 'g',
  concentrate_g: 'g',
  thc_mg: 'mg',
  flower_equivalent_g: 'g',
};

function amount(n: number, unit: CartLimitMeter['unit']): string {
  return `${Number(n.toFixed(3))} ${UNIT_SYMBOL[unit]}`;
}

function MeterRow({ meter: m }: { meter: CartLimitMeter }) {
  const labelId = useId();
  const total = m.used + m.in_cart;
  const cap = m.cap ?? 0;
  return (
    <li data-bucket={m.bucket}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span id={labelId} className="font-medium text-stone-900">
          {m.label}
        </span>
        <span className={`tabular-nums ${m.over ? 'font-semibold text-red-800' : 'text-stone-700'}`}>{m.text}</span>
      </div>
      <meter
        aria-labelledby={labelId}
        aria-valuetext={m.text}
        min={0}
        max={cap}
        value={Math.min(total, cap)}
        low={cap * 0.75}
        high={cap}
        optimum={0}
        className="mt-1 block h-2 w-full"
      />
      {m.used > 0 ? (
        <p className="mt-0.5 text-xs text-stone-600">
          {amount(m.in_cart, m.unit)} in this cart, {amount(m.used, m.unit)} in your earlier orders
        </p>
      ) : null}
    </li>
  );
}

function Over({ limits }: { limits: CartLimits }) {
  const removable = limits.remove.filter((r) => r.name);
  return (
    <div className="mt-3 rounded-xl border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800" data-over-limit="">
      <ul className="space-y-1 font-medium">
        {limits.violations.map((v) => (
          <li key={v.bucket}>{v.message}</li>
        ))}
      </ul>
      {removable.length ? (
        <>
          <p className="mt-2">To stay within the limits, remove:</p>
          <ul aria-label="What to remove" className="list-disc pl-5">
            {removable.map((r) => (
              <li key={`${r.sku}:${r.name}`}>
                {r.qty} × {r.name}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

function GuestNotice({ text }: { text: string }) {
  return (
    <p className="mt-3 rounded-xl bg-stone-50 px-3 py-2 text-sm text-stone-700 ring-1 ring-stone-200" data-testid="limits-guest-notice">
      {text}
    </p>
  );
}
