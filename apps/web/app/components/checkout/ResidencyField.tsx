import type { Residency } from '../../api/cart.ts';
import { useRootData } from '../../lib/root-data.ts';
import { useCart, useCartApi } from '../../state/use-cart.ts';

/** The message when a store that needs residency has none (issue 14; not in the spec's copy). */
export const RESIDENCY_REQUIRED = 'Tell us whether you live in this state: the purchase limits depend on it.';

/** Whether the checkout must ask: the server's limits answer says the store's model needs it. */
export function useNeedsResidency(): boolean {
  return useCart((s) => s.limits?.needs_residency === true);
}

/**
 * Residency (issue 14, purchase-limit buckets): asked at checkout where the store's limit model
 * has other caps for visitors (Illinois halves them). The answer goes to the cart store, which
 * keeps it for the browser session, sends it with every cart update and asks the server's meters
 * again with it (a visitor sees the visitor's caps at once); the order carries it too.
 *
 * Decisions where the issue is silent: asked at checkout, not at the age gate (the gate is the
 * same for every store and comes before a cart exists; the checkout is where the answer counts);
 * nothing is preselected — until the shopper says, the stricter caps apply.
 */
export function ResidencyField({ error, onEdit }: { error?: string; onEdit(): void }) {
  const { store } = useRootData();
  const residency = useCart((s) => s.residency);
  const cart = useCartApi();
  const choose = (r: Residency) => {
    onEdit();
    void cart.getState().setResidency(r);
  };
  const option =
    'flex min-h-12 cursor-pointer items-center gap-3 rounded-xl border border-stone-300 p-3 has-checked:border-brand has-checked:ring-2 has-checked:ring-brand';
  const state = store.placeInfo.address.region || store.placeInfo.address.region_code;
  return (
    <fieldset
      role="radiogroup"
      aria-labelledby="residency-legend"
      className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:p-6"
      aria-describedby={`residency-hint${error ? ' residency-error' : ''}`}
      aria-invalid={error ? true : undefined}
      aria-required="true"
    >
      <legend id="residency-legend" className="float-left w-full font-display text-xl font-bold text-stone-900">
        Residency
      </legend>
      <p id="residency-hint" className="clear-both pt-1 text-sm text-stone-700">
        The purchase limits for visitors from another state are lower. Required.
      </p>
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <label className={option}>
          <input
            id="residency"
            type="radio"
            name="residency"
            value="resident"
            checked={residency === 'resident'}
            onChange={() => choose('resident')}
            className="accent-brand"
          />
          <span className="font-medium">Resident of {state}</span>
        </label>
        <label className={option}>
          <input
            type="radio"
            name="residency"
            value="non_resident"
            checked={residency === 'non_resident'}
            onChange={() => choose('non_resident')}
            className="accent-brand"
          />
          <span className="font-medium">Visiting from another state</span>
        </label>
      </div>
      {error ? (
        <p id="residency-error" className="mt-2 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
