import { useState } from 'react';
import {
  DELIVERY_MESSAGES,
  deliveryAreaSentence,
  deliveryAreaText,
  deliveryOptionLabel,
  formatMoney,
  normalizeZip,
  zonesNeedDetail,
} from '@verdant/domain';
import { ZoneList } from '../store/DeliveryZones.tsx';
import { useRootData } from '../../lib/root-data.ts';
import { formatAddress } from '../../lib/store-view.ts';
import type { FieldErrors } from '../../lib/checkout-validation.ts';
import type { OrderType, ShippingDetails } from '../../state/checkout-store.ts';
import { useCartApi, useCheckout, useCheckoutApi } from '../../state/use-cart.ts';
import { Field, sectionClass, sectionTitleClass } from './Field.tsx';

export type AddressErrors = FieldErrors<'address' | 'city' | 'zip'>;

/**
 * Asks the server whether the address can get a delivery (POST /api/cart/shipping-information):
 * the server places the address by its ZIP code and measures from the store (the domain's
 * delivery rule); a refusal (unknown ZIP, outside the delivery area) comes back as its message.
 * Resolves with the message for the ZIP field, or null when delivery is possible.
 */
export function useDeliveryCheck() {
  const { store } = useRootData();
  const cart = useCartApi();
  const checkout = useCheckoutApi();
  const [checking, setChecking] = useState(false);
  const check = async (): Promise<string | null> => {
    const s = checkout.getState().shipping;
    const zip = normalizeZip(s.zip);
    if (!zip) return DELIVERY_MESSAGES.zipRequired;
    const known = checkout.getState().delivery;
    let delivery = known && known.zip === zip ? known : null;
    if (!delivery) {
      setChecking(true);
      try {
        const info = await cart.getState().setShipping('delivery', { zip, city: s.city.trim(), address: s.address.trim(), apt_ste: s.apt_ste.trim() || null });
        if (!info) return 'Delivery can’t be checked while the store can’t be reached. Choose pickup, or try again in a moment.';
        delivery = { zip, distance: info.distance, too_far: info.too_far, zone: info.zone ?? null };
        checkout.getState().setDelivery(delivery);
      } catch (e) {
        // The server's refusal says why and what to do (choose pickup or another address).
        return e instanceof Error ? e.message : 'Delivery can’t be checked right now.';
      } finally {
        setChecking(false);
      }
    }
    // The server refuses an address outside every zone with its own message (above); too_far is the older answer's way.
    return delivery.too_far ? DELIVERY_MESSAGES.tooFar(zip, delivery.distance ?? 0, store.delivery.radius_miles ?? store.placeInfo.deliveryRadiusMiles) : null;
  };
  return { check, checking };
}

interface Props {
  errors: AddressErrors;
  onEdit(field: keyof ShippingDetails): void;
  onZipChecked(message: string | null): void;
}

/**
 * Spec §3 Shipping: pickup (default, free) or delivery with the address. The delivery option says
 * what the store's zones charge and where they reach (issue 14: one fee reads as the spec's
 * "$5.00 incl. tax", several as "from …"); the server names the address's zone, its fee and time.
 */
export function DeliveryFields({ errors, onEdit, onZipChecked }: Props) {
  const { store } = useRootData();
  const shipping = useCheckout((s) => s.shipping);
  const delivery = useCheckout((s) => s.delivery);
  const setShipping = useCheckout((s) => s.setShipping);
  const cart = useCartApi();
  const { check, checking } = useDeliveryCheck();
  const optionLabel = deliveryOptionLabel(store.delivery, store.money);
  const area = deliveryAreaText(store.delivery);
  const delivers = optionLabel != null;
  const change = (field: keyof ShippingDetails) => (value: string) => {
    setShipping({ [field]: value });
    onEdit(field);
  };
  const choose = async (method: OrderType) => {
    setShipping({ method });
    onEdit('method');
    if (method === 'pickup') await cart.getState().setShipping('pickup').catch(() => null);
    else if (normalizeZip(shipping.zip)) onZipChecked(await check());
  };
  const option = 'flex min-h-14 cursor-pointer items-start gap-3 rounded-xl border border-stone-300 p-3 has-checked:border-brand has-checked:ring-2 has-checked:ring-brand';

  return (
    <section aria-labelledby="shipping-title" className={sectionClass}>
      <h2 id="shipping-title" className={sectionTitleClass}>
        2. Pickup or delivery
      </h2>
      <fieldset className="mt-4">
        <legend className="sr-only">Order type</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          <label className={option}>
            <input type="radio" name="order_type" value="pickup" checked={shipping.method === 'pickup'} onChange={() => void choose('pickup')} className="mt-1 accent-brand" />
            <span>
              <span className="block font-semibold">Pickup — Free</span>
              <span className="block text-sm text-stone-700">At {formatAddress(store.placeInfo)}</span>
            </span>
          </label>
          {delivers ? (
            <label className={option}>
              <input type="radio" name="order_type" value="delivery" checked={shipping.method === 'delivery'} onChange={() => void choose('delivery')} className="mt-1 accent-brand" />
              <span>
                <span className="block font-semibold">{optionLabel}</span>
                <span className="block text-sm text-stone-700">{area}</span>
              </span>
            </label>
          ) : null}
        </div>
      </fieldset>
      {shipping.method === 'delivery' && zonesNeedDetail(store.delivery) ? (
        <ZoneList className="mt-4 text-sm text-stone-700" />
      ) : null}
      {shipping.method === 'delivery' ? (
        <div className="mt-4 grid gap-4 sm:grid-cols-6">
          <Field id="address" label="Street address" required autoComplete="address-line1" className="sm:col-span-4" value={shipping.address} onChange={change('address')} error={errors.address} />
          <Field id="apt_ste" label="Apt / suite" autoComplete="address-line2" className="sm:col-span-2" value={shipping.apt_ste} onChange={change('apt_ste')} />
          <Field id="city" label="City" required autoComplete="address-level2" className="sm:col-span-3" value={shipping.city} onChange={change('city')} error={errors.city} />
          <Field
            id="zip"
            label="ZIP code"
            required
            autoComplete="postal-code"
            inputMode="numeric"
            className="sm:col-span-3"
            value={shipping.zip}
            onChange={change('zip')}
            onBlur={async () => {
              if (normalizeZip(shipping.zip)) onZipChecked(await check());
            }}
            error={errors.zip}
            hint={deliveryAreaSentence(store.delivery) ?? undefined}
          />
          <p role="status" className="text-sm text-stone-700 sm:col-span-6">
            {checking
              ? 'Checking delivery to this address…'
              : delivery && delivery.zip === normalizeZip(shipping.zip) && !delivery.too_far
                ? <>
                    <span className="block">{`We deliver here: ${delivery.distance} miles from the store.`}</span>
                    {delivery.zone ? (
                      <span className="block">
                        {`${delivery.zone.name}: delivery ${delivery.zone.free ? 'free for this order' : `${formatMoney(delivery.zone.fee_incl_tax, store.money)} incl. tax`}, ${delivery.zone.eta}.`}
                      </span>
                    ) : null}
                  </>
                : ''}
          </p>
        </div>
      ) : null}
    </section>
  );
}

