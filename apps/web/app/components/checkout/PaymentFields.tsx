import { MESSAGES } from '@verdant/domain';
import { isVirtualCart } from '../../state/cart-items.ts';
import { useCart } from '../../state/use-cart.ts';
import { CouponForm } from '../cart/CouponForm.tsx';
import { Field, sectionClass, sectionTitleClass } from './Field.tsx';

/**
 * Spec §3 Payment: cash on delivery is the one method (hidden for an all-virtual cart, spec §5);
 * a coupon code; reward points (whole points only). Guests have no points until accounts land,
 * so the points field shows disabled with the reason.
 */
export function PaymentFields({ couponCode }: { couponCode: string | null }) {
  const virtual = useCart((s) => isVirtualCart(s.items));
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
              <span className="block font-semibold">Cash on delivery</span>
              <span className="block text-sm text-stone-700">{MESSAGES.payOnDeliveryText} Cash or debit at the door or the counter.</span>
            </span>
          </label>
        </fieldset>
      )}
      <div className="mt-5 grid gap-5 sm:grid-cols-2">
        <CouponForm appliedCode={couponCode} />
        <Field
          id="burnCredits"
          label="Reward points to redeem"
          inputMode="numeric"
          value="0"
          onChange={() => {}}
          disabled
          hint="You have 0 points. Reward points come with customer accounts, which are on their way."
        />
      </div>
    </section>
  );
}
