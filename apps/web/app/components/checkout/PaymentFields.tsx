import { useState } from 'react';
import { PAYMENT_COPY, pointsRule } from '@verdant/domain';
import { useAuth } from '../../state/use-auth.ts';
import { isVirtualCart } from '../../state/cart-items.ts';
import { useCart, useCheckout, useCheckoutApi } from '../../state/use-cart.ts';
import { CouponForm } from '../cart/CouponForm.tsx';
import { Field, sectionClass, sectionTitleClass } from './Field.tsx';

/**
 * Spec §3 Payment: cash on delivery is the one method (hidden for an all-virtual cart, spec §5);
 * a coupon code; reward points (whole points only, spec §5), for a logged-in customer with a
 * balance — the server checks the balance again when the order is saved.
 */
export function PaymentFields({ couponCode }: { couponCode: string | null }) {
  const virtual = useCart((s) => isVirtualCart(s.items));
  const method = useCheckout((s) => s.shipping.method);
  return (
    <section aria-labelledby="payment-title" className={sectionClass}>
      <h2 id="payment-title" className={sectionTitleClass}>
        3. Payment
      </h2>
      {virtual ? (
        <p className="mt-3 text-stone-700">Nothing to pay on delivery for this order.</p>
      ) : (
        <fieldset className="mt-4">
          <legend className="text-sm font-semibold text-stone-900">Payment method</legend>
          <label className="mt-2 flex min-h-14 items-start gap-3 rounded-xl border border-brand p-3 ring-2 ring-brand">
            <input type="radio" name="payment_method" value="cashondelivery" checked readOnly className="mt-1 accent-brand" />
            <span>
              <span className="block font-semibold">{method === 'pickup' ? 'Pay at pickup' : 'Cash on delivery'}</span>
              <span className="block text-sm text-stone-700">
                {PAYMENT_COPY[method].text} Cash or debit {method === 'pickup' ? 'at the counter' : 'at the door'}.
              </span>
            </span>
          </label>
        </fieldset>
      )}
      <div className="mt-5 grid gap-5 sm:grid-cols-2">
        <CouponForm appliedCode={couponCode} />
        <PointsField />
      </div>
    </section>
  );
}

function PointsField() {
  const user = useAuth((s) => s.user);
  const checkout = useCheckoutApi();
  const saved = useCheckout((s) => s.burnCredits);
  const [text, setText] = useState(saved ? String(saved) : '');
  const [error, setError] = useState<string | undefined>();
  const balance = user?.credits ?? 0;
  if (!user || balance <= 0) {
    return (
      <Field
        id="burnCredits"
        label="Reward points to redeem"
        inputMode="numeric"
        value=""
        onChange={() => {}}
        disabled
        hint={user ? 'You have no reward points yet: every whole dollar of an order earns one.' : 'Log in to earn and redeem reward points (1 point = 1¢).'}
      />
    );
  }
  return (
    <Field
      id="burnCredits"
      label="Reward points to redeem"
      inputMode="numeric"
      value={text}
      error={error}
      hint={`You have ${balance} points (1 point = 1¢).`}
      onChange={(value: string) => {
        setText(value);
        const problem = pointsRule(value) ?? (Number(value) > balance ? `You have only ${balance} points.` : undefined);
        setError(problem);
        checkout.getState().setBurnCredits(problem || !value.trim() ? 0 : Number(value));
      }}
    />
  );
}
