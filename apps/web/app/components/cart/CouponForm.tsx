import { MESSAGES } from '@verdant/domain';
import { useId, useState } from 'react';
import { announce } from '../../lib/announce.ts';
import { useCart } from '../../state/use-cart.ts';

/**
 * Coupon code (spec §4 Coupon): applied or removed only when the totals can sync, then the totals
 * are fetched again. The server's answer is shown next to the field ("You've entered an incorrect
 * coupon code. Please try again."). The applied code comes from the server's totals.
 */
export function CouponForm({ appliedCode }: { appliedCode: string | null }) {
  const applyCoupon = useCart((s) => s.applyCoupon);
  const removeCoupon = useCart((s) => s.removeCoupon);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  const apply = async () => {
    const value = code.trim();
    if (!value) {
      setError(MESSAGES.fieldRequired);
      return;
    }
    setBusy(true);
    const outcome = await applyCoupon(value);
    setBusy(false);
    if (outcome.kind === 'refused') {
      setError(outcome.message);
      return;
    }
    setError(null);
    setCode('');
    announce(`Coupon ${value.toUpperCase()} applied. Totals updated.`);
  };

  if (appliedCode) {
    return (
      <div className="flex flex-wrap items-center justify-between gap-2 rounded-xl bg-brand/10 px-3 py-2 text-sm">
        <p>
          Coupon <strong className="font-semibold">{appliedCode}</strong> applied
        </p>
        <button
          type="button"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            const outcome = await removeCoupon();
            setBusy(false);
            if (outcome.kind === 'refused') setError(outcome.message);
            else announce(`Coupon ${appliedCode} removed. Totals updated.`);
          }}
          className="inline-flex min-h-11 items-center font-medium text-stone-800 underline underline-offset-4 hover:text-stone-950"
        >
          Remove coupon<span className="sr-only"> {appliedCode}</span>
        </button>
        {error ? (
          <p role="alert" className="w-full font-medium text-red-700">
            {error}
          </p>
        ) : null}
      </div>
    );
  }

  return (
    // Not a <form>: the checkout form contains it, and forms cannot nest. Enter in the field applies.
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-stone-900">
        Coupon code
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id={id}
          name="coupon"
          value={code}
          autoComplete="off"
          autoCapitalize="characters"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => setCode(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void apply();
            }
          }}
          className="min-h-11 min-w-0 flex-1 rounded-lg border border-stone-400 bg-white px-3 uppercase placeholder:normal-case aria-invalid:border-red-700"
        />
        <button
          type="button"
          disabled={busy}
          onClick={() => void apply()}
          className="inline-flex min-h-11 items-center rounded-full border border-stone-400 bg-white px-4 text-sm font-semibold text-stone-900 hover:bg-stone-100 disabled:opacity-60"
        >
          Apply<span className="sr-only"> coupon</span>
        </button>
      </div>
      <p id={`${id}-error`} role="alert" className="mt-1 text-sm font-medium text-red-700 empty:hidden">
        {error ?? ''}
      </p>
    </div>
  );
}
