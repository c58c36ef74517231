import { useState, type FormEvent } from 'react';
import type { Address, AddressInput } from '../../../api/user.ts';
import { firstInvalid, validateAddressForm, type AddressField, type AddressForm, type FieldErrors } from '../../../lib/account-forms.ts';
import { addressLine } from '../../../lib/account-view.ts';
import { AUTH_COPY } from '../../../state/auth-types.ts';
import { notify } from '../../../state/notifications.ts';
import { useAuth, useAuthApi } from '../../../state/use-auth.ts';
import { Field } from '../../checkout/Field.tsx';
import { Block, FormError, primaryButton, secondaryButton, focusField, useSubmit } from '../ui.tsx';

const EMPTY: AddressForm = { title: '', street: '', house_number: '', apt_ste: '', city: '', postcode: '' };
const ORDER: AddressField[] = ['title', 'street', 'house_number', 'apt_ste', 'city', 'postcode'];

function formOf(a: Address): AddressForm {
  return { title: a.title ?? '', street: a.street, house_number: a.house_number ?? '', apt_ste: a.apt_ste ?? '', city: a.city, postcode: a.postcode };
}

/** /my-account/shipping-details (spec §3 Shipping details): the customer's addresses, added, edited, removed. */
export function ShippingBlock() {
  const addresses = useAuth((s) => s.user?.addresses ?? []);
  const auth = useAuthApi();
  const [editing, setEditing] = useState<number | 'new' | null>(addresses.length === 0 ? 'new' : null);
  const [removing, setRemoving] = useState<number | null>(null);

  const remove = async (a: Address) => {
    setRemoving(a.id);
    try {
      await auth.getState().deleteAddress(a.id);
      notify({ type: 'success', message: AUTH_COPY.accountUpdated });
    } catch (e) {
      notify({ type: 'error', message: e instanceof Error ? e.message : 'Something went wrong.', action1: { label: 'OK' } });
    } finally {
      setRemoving(null);
    }
  };

  return (
    <Block
      id="addresses"
      title="Your addresses"
      actions={
        editing === null ? (
          <button type="button" className={secondaryButton} onClick={() => setEditing('new')}>
            Add an address
          </button>
        ) : null
      }
    >
      {addresses.length === 0 && editing !== 'new' ? <p className="text-stone-700">No addresses yet.</p> : null}
      <ul className="space-y-3" aria-label="Saved addresses">
        {addresses.map((a) => (
          <li key={a.id} className="rounded-xl border border-stone-200 p-4">
            {editing === a.id ? (
              <AddressEditor initial={formOf(a)} id={a.id} isDefault={a.is_default} onDone={() => setEditing(null)} />
            ) : (
              <div className="flex flex-wrap items-center justify-between gap-3">
                <p className="text-stone-900">
                  {addressLine(a)}
                  {a.is_default ? <span className="ml-2 rounded-full bg-stone-100 px-2 py-0.5 text-xs font-medium text-stone-700">Default</span> : null}
                </p>
                <div className="flex gap-2">
                  <button type="button" className={secondaryButton} onClick={() => setEditing(a.id)}>
                    Edit<span className="sr-only"> {addressLine(a)}</span>
                  </button>
                  <button type="button" className={secondaryButton} disabled={removing === a.id} onClick={() => void remove(a)}>
                    Remove<span className="sr-only"> {addressLine(a)}</span>
                  </button>
                </div>
              </div>
            )}
          </li>
        ))}
      </ul>
      {editing === 'new' ? (
        <div className="mt-4 rounded-xl border border-stone-200 p-4">
          <AddressEditor initial={EMPTY} isDefault={addresses.length === 0} onDone={() => setEditing(null)} />
        </div>
      ) : null}
    </Block>
  );
}

function AddressEditor({ initial, id, isDefault, onDone }: { initial: AddressForm; id?: number; isDefault: boolean; onDone(): void }) {
  const auth = useAuthApi();
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors<AddressField>>({});
  const { busy, error, run } = useSubmit();
  const prefix = id == null ? 'address-new' : `address-${id}`;
  const set = (k: AddressField) => (v: string) => {
    setForm((f) => ({ ...f, [k]: v }));
    if (errors[k]) setErrors((e) => ({ ...e, [k]: undefined }));
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateAddressForm(form);
    setErrors(found);
    const first = firstInvalid(ORDER, found);
    if (first) return focusField(`${prefix}-${first}`);
    const t = (v: string) => v.trim() || null;
    const input: AddressInput = {
      ...(id != null ? { id } : {}),
      title: t(form.title),
      street: form.street.trim(),
      house_number: t(form.house_number),
      apt_ste: t(form.apt_ste),
      city: form.city.trim(),
      postcode: form.postcode.trim(),
      country_id: 'US',
      is_default: isDefault,
    };
    const ok = await run(() => auth.getState().updateMe({ addresses: [input] }));
    if (ok) {
      notify({ type: 'success', message: AUTH_COPY.accountUpdated });
      onDone();
    }
  };
  return (
    <form noValidate onSubmit={submit} aria-label={id == null ? 'New address' : 'Edit address'} className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={`${prefix}-title`} label="Address name" hint="For example Home or Work." data-autofocus value={form.title} onChange={set('title')} error={errors.title} />
        <Field id={`${prefix}-street`} label="Street" required autoComplete="address-line1" value={form.street} onChange={set('street')} error={errors.street} />
        <Field id={`${prefix}-house_number`} label="House number" value={form.house_number} onChange={set('house_number')} error={errors.house_number} />
        <Field id={`${prefix}-apt_ste`} label="Apartment" autoComplete="address-line2" value={form.apt_ste} onChange={set('apt_ste')} error={errors.apt_ste} />
        <Field id={`${prefix}-city`} label="City" required autoComplete="address-level2" value={form.city} onChange={set('city')} error={errors.city} />
        <Field id={`${prefix}-postcode`} label="ZIP code" required autoComplete="postal-code" inputMode="numeric" value={form.postcode} onChange={set('postcode')} error={errors.postcode} />
      </div>
      <FormError message={error} />
      <div className="flex gap-3">
        <button type="submit" disabled={busy} className={primaryButton}>
          Save address
        </button>
        <button type="button" className={secondaryButton} onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
