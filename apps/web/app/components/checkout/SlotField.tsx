import { useEffect, useState } from 'react';
import { fetchSlots, type SlotsAnswer } from '../../api/slots.ts';

/**
 * When the order should be ready (issue 14 "Hours and time slots"): as soon as possible while the
 * store is open for this order type, or one of the time slots with room. The list comes from the
 * server (GET /api/order/slots) and the server checks the chosen slot again when the order is
 * saved. Outside hours the store either takes the order for its first free slot or refuses it; the
 * shopper is told which before placing the order. '' means as soon as possible.
 */
export function SlotField({
  orderType,
  value,
  onChange,
}: {
  orderType: 'pickup' | 'delivery';
  value: string;
  onChange: (slot: string) => void;
}) {
  const [answer, setAnswer] = useState<SlotsAnswer | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    setAnswer(null);
    setFailed(false);
    fetchSlots(orderType)
      .then((a) => {
        if (!live) return;
        setAnswer(a);
        // A slot of the other order type (or one that is gone) is not kept.
        if (value && !a.slots.some((s) => s.start === value)) onChange('');
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [orderType]);
  // Offline or the server unreachable: the order goes as before (ASAP, or the store's next slot).
  if (failed || !answer) return null;
  const what = orderType === 'pickup' ? 'pickup' : 'delivery';
  return (
    <div className="mt-4" data-testid="slot-field">
      <label htmlFor="order-slot" className="block text-sm font-semibold text-stone-900">
        {orderType === 'pickup' ? 'Pickup time' : 'Delivery time'}
      </label>
      <p id="order-slot-status" className="mt-1 text-sm text-stone-700">
        {answer.status.label}
        {!answer.asap && answer.outside_hours === 'next_slot'
          ? ` · Without a chosen time, your order is prepared for the first free ${what} slot.`
          : ''}
        {!answer.asap && answer.outside_hours === 'refuse' ? ' · Please choose a time slot.' : ''}
      </p>
      <select
        id="order-slot"
        name="slot"
        aria-describedby="order-slot-status"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="mt-2 block min-h-12 w-full rounded-xl border border-stone-300 bg-white px-3 text-stone-900"
      >
        {answer.asap || answer.outside_hours === 'next_slot' ? (
          <option value="">{answer.asap ? 'As soon as possible' : 'First free slot'}</option>
        ) : (
          <option value="">Choose a time</option>
        )}
        {answer.slots.map((s) => (
          <option key={s.start} value={s.start}>
            {s.label}
            {s.remaining != null && s.remaining <= 3 ? ` (${s.remaining} left)` : ''}
          </option>
        ))}
      </select>
    </div>
  );
}
